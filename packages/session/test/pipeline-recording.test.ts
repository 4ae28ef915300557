import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, defineTool, type AssistantMessage, type Harness, type ToolResult } from '@weir/core';
import { createFileSessionStore, rebuildHistory, type Session, type SessionEntry } from '../src/index.js';
import { faultyFileSystem } from './fixtures/faulty-file-system.js';
import { wireProblem } from './fixtures/wire-check.js';

// The recording the agent loop is meant to do (docs/sessions.md, "How the agent uses the store"),
// against the real pipeline: `tool_call_started` from an execute-stage wrapper, synced before the
// body runs, so a failed write keeps the body from running; `tool_result` from the result observer;
// one sync after the batch.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-record-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const resultEntry = (result: ToolResult): SessionEntry => ({
  type: 'tool_result',
  callId: result.callId,
  toolName: result.toolName,
  ok: result.ok,
  content: result.content,
  ...(result.ok ? {} : { error: { code: result.error.code, message: result.error.message } }),
});

async function recordingHarness(session: Session, body: (args: { text: string }) => Promise<string>) {
  const harness = createHarness();
  harness.tools.register(
    defineTool({
      name: 'note',
      description: 'Writes a note.',
      tier: 'write',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      execute: (args) => body(args as { text: string }),
    }),
  );
  harness.hooks.execute.tapPromise('session', async (dispatch, context) => async (args, exec) => {
    // Durable before a side effect: an append that fails rejects here, and the body never runs.
    await session.append(
      { type: 'tool_call_started', callId: context.callId, toolName: context.toolName, arguments: args },
      { sync: context.tool?.tier !== 'read-only' },
    );
    return dispatch(args, exec);
  });
  harness.hooks.result.tap('session', (result) => {
    // Observers are synchronous: the append is queued in order; its failure surfaces at session.sync().
    session.append(resultEntry(result)).catch(() => undefined);
  });
  return harness;
}

async function step(harness: Harness, session: Session, ids: string[]) {
  const assistant: AssistantMessage = { role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'note', arguments: { text: id } })) };
  await session.append({ type: 'message', message: assistant });
  const results = await harness.executeToolCalls(assistant.toolCalls!);
  await session.sync(); // after the tool results: rejects if any record of the batch failed
  return { assistant, results };
}

describe('recording tool calls from the pipeline', () => {
  it('records each start before its body runs and each result after, and rebuilds the live history', async () => {
    const session = await createFileSessionStore(dir).create({ id: 's' });
    const seen: number[] = [];
    const harness = await recordingHarness(session, async ({ text }) => {
      seen.push(session.records().length); // the body runs after its start record is in
      if (text === 'b') throw new Error('disk says no');
      return `noted ${text}`;
    });
    const { assistant, results } = await step(harness, session, ['a', 'b']);
    await session.append({ type: 'turn_end', reason: 'stop' }, { sync: true });
    await session.close();

    const records = await createFileSessionStore(dir).read('s');
    expect(records.map((r) => (r.type === 'tool_call_started' || r.type === 'tool_result' ? `${r.type}:${r.callId}` : r.type))).toEqual([
      'session',
      'message',
      'tool_call_started:a',
      expect.stringMatching(/^tool_(call_started:b|result:a)$/),
      expect.stringMatching(/^tool_(call_started:b|result:a)$/),
      'tool_result:b',
      'turn_end',
    ]);
    expect(seen.length).toBe(2);
    const reopened = await createFileSessionStore(dir).open('s');
    const live = [assistant, ...results.map((r) => ({ role: 'tool', toolCallId: r.callId, toolName: r.toolName, content: r.content, isError: !r.ok }))];
    expect(reopened.history().messages).toEqual(live);
    expect(wireProblem(reopened.history().messages)).toBeUndefined();
    await reopened.close();
  });

  it('a start record that cannot be made durable keeps the body from running, and the session reports it', async () => {
    const { fs, faults } = faultyFileSystem();
    const session = await createFileSessionStore(dir, { fs }).create({ id: 's' });
    let ran = 0;
    const harness = await recordingHarness(session, async () => {
      ran += 1;
      return 'done';
    });
    await session.append({ type: 'message', message: { role: 'user', content: 'note this' } });
    faults.datasync = 'ENOSPC';
    const assistant: AssistantMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'note', arguments: { text: 'a' } }] };
    await session.append({ type: 'message', message: assistant });
    const [result] = await harness.executeToolCalls(assistant.toolCalls!);
    expect(ran).toBe(0);
    // The wrapper's rejection settles the call as a failure the model could read; the turn must stop anyway:
    expect(result).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED', message: expect.stringContaining('ENOSPC') } });
    await expect(session.sync()).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await session.close();
  });

  it('a process that dies while a body runs leaves a call that rebuilds as interrupted, outcome unknown', async () => {
    const session = await createFileSessionStore(dir).create({ id: 's' });
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const harness = await recordingHarness(session, () => {
      running();
      return new Promise(() => undefined); // the process "dies" here
    });
    void step(harness, session, ['a']);
    await started;
    const history = rebuildHistory(await createFileSessionStore(dir).read('s'));
    expect(history.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'a', isError: true, content: expect.stringContaining('outcome unknown') });
    expect(history.interrupted).toEqual([{ callId: 'a', toolName: 'note', arguments: { text: 'a' }, started: true }]);
  });
});
