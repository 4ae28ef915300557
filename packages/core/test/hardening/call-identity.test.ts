import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, type ApprovalKey, type ApprovalMemory, type ApprovalResponse, type Message, type ModelRequest, type ToolExecution } from '@weir/core';
import { harnessWith, scriptedModel } from '../support.js';

function recordingTool() {
  const execs: ToolExecution[] = [];
  const tool = defineTool({
    name: 'note',
    description: 'Notes something down.',
    tier: 'write',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
    execute: (_args, exec) => {
      execs.push(exec);
      return 'noted';
    },
  });
  return { tool, execs };
}

const idsOf = (messages: readonly Message[]) =>
  messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : message.role === 'tool' ? [`tool:${message.toolCallId}`] : []));

describe('one approval covers one execution', () => {
  it('colliding and empty ids in one answer get deterministic new ids, in the history and the wire messages alike', async () => {
    const { tool, execs } = recordingTool();
    const harness = await harnessWith([tool]);
    const seen: ModelRequest[] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'dup', name: 'note', arguments: {} }, { id: 'dup', name: 'note', arguments: {} }, { id: '', name: 'note', arguments: {} }] },
      { text: 'done' },
    ]);
    const watching = { ...model, complete: (request: ModelRequest) => {
      seen.push({ ...request, messages: [...request.messages] });
      return model.complete(request);
    } };
    const agent = createAgent({ model: watching, harness });
    await agent.turn('go');
    expect(idsOf(agent.messages)).toEqual(['dup', 'dup_2', 'call_1_3', 'tool:dup', 'tool:dup_2', 'tool:call_1_3']);
    expect(idsOf(seen[1]!.messages)).toEqual(idsOf(agent.messages));
    expect(execs.map((exec) => exec.callId)).toEqual(['dup', 'dup_2', 'call_1_3']);
  });

  it('an id the history already holds from an earlier turn is renamed too', async () => {
    const { tool } = recordingTool();
    const harness = await harnessWith([tool]);
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_0', name: 'note', arguments: {} }] },
      { text: 'one' },
      { toolCalls: [{ id: 'call_0', name: 'note', arguments: {} }] },
      { text: 'two' },
    ]);
    const agent = createAgent({ model, harness });
    await agent.turn('first');
    await agent.turn('second');
    expect(idsOf(agent.messages)).toEqual(['call_0', 'tool:call_0', 'call_0_2', 'tool:call_0_2']);
  });

  it('every execution has its own key; a turn is one run', async () => {
    const { tool, execs } = recordingTool();
    const harness = await harnessWith([tool]);
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'note', arguments: {} }, { id: 'b', name: 'note', arguments: {} }] },
      { text: 'one' },
      { toolCalls: [{ id: 'c', name: 'note', arguments: {} }] },
      { text: 'two' },
    ]);
    const agent = createAgent({ model, harness });
    await agent.turn('first');
    await agent.turn('second');
    const keys = execs.map((exec) => exec.callKey);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(execs[0]!.run.id).toBe(execs[1]!.run.id);
    expect(execs[2]!.run.id).not.toBe(execs[0]!.run.id);
    // The key the history records is the one the body saw.
    const recorded = agent.messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.key) : []));
    expect(recorded).toEqual(keys);
  });

  it('a key and a run given by the caller are the ones the body and the journal see', async () => {
    const { tool, execs } = recordingTool();
    const harness = await harnessWith([tool]);
    const started: string[] = [];
    await harness.executeToolCall(
      { id: 'x', name: 'note', arguments: {}, key: 'my-key' },
      { run: { id: 'run-1', parentCallKey: 'parent' }, journal: { started: (call) => void started.push(call.callKey), settled: () => undefined } },
    );
    expect(execs[0]).toMatchObject({ callKey: 'my-key', run: { id: 'run-1', parentCallKey: 'parent' } });
    expect(started).toEqual(['my-key']);
  });

  it('a decision remembered by key never covers a second execution with the same id and arguments', async () => {
    const { tool, execs } = recordingTool();
    const asked: string[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder((request) => {
        asked.push(request.callKey);
        return { decision: 'allow' };
      });
    });
    const decisions = new Map<string, ApprovalResponse>();
    const memory: ApprovalMemory = {
      find: (key: ApprovalKey) => decisions.get(`${key.callKey} ${key.argumentsHash}`),
      record: async (key, response) => void decisions.set(`${key.callKey} ${key.argumentsHash}`, response),
    };
    await harness.executeToolCalls([{ id: 'same', name: 'note', arguments: { text: 'x' } }, { id: 'same', name: 'note', arguments: { text: 'x' } }], { approvals: memory });
    expect(asked).toHaveLength(2);
    expect(new Set(asked).size).toBe(2);
    expect(execs).toHaveLength(2);
  });

  it('arguments a remote wrapper carries are checked on the far side against the approved hash', async () => {
    const { tool, execs } = recordingTool();
    const harness = await harnessWith([tool]);
    const { argumentsHash } = await import('@weir/core');
    const good = await harness.executeToolCall({ id: 'r', name: 'note', arguments: { text: 'a' } }, { expectedArgumentsHash: argumentsHash({ text: 'a' }) });
    const bad = await harness.executeToolCall({ id: 'r', name: 'note', arguments: { text: 'b' } }, { expectedArgumentsHash: argumentsHash({ text: 'a' }) });
    expect(good.ok).toBe(true);
    expect(bad).toMatchObject({ ok: false, error: { code: 'ARGUMENTS_MISMATCH' } });
    expect(execs).toHaveLength(1);
  });
});
