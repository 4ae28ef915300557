import { describe, expect, it } from 'vitest';
import { agentTool, createAgent, createHarness, defineTool, definePlugin, type AgentEvent, type ApprovalRequest, type CallRun, type ModelRequest } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { readFileTool } from './support.js';

/** A harness with read_file, a write tool that records its runs and runs, and a policy: writes ask a person. */
async function policedHarness() {
  const writes: string[] = [];
  const runs: CallRun[] = [];
  const asked: ApprovalRequest[] = [];
  const harness = createHarness();
  harness.tools.register(readFileTool({ 'notes.md': 'weirs hold water back' }));
  harness.tools.register(
    defineTool({
      name: 'write_file',
      description: 'Writes a file.',
      tier: 'write',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: ({ path }, exec) => {
        writes.push(path);
        runs.push(exec.run);
        return `wrote ${path}`;
      },
    }),
  );
  await harness.use(
    definePlugin({
      name: 'ask-for-writes',
      setup(ctx) {
        ctx.guards.add((call) => (call.tier === 'read-only' ? { decision: 'allow' } : { decision: 'ask', reason: 'writes need a person' }));
        ctx.approval.setResponder((request) => {
          asked.push(request);
          return { decision: 'allow' };
        });
      },
    }),
  );
  return { harness, writes, runs, asked };
}

const delegate = (task: string) => ({ toolCalls: [{ id: 'p1', name: 'researcher', arguments: { task } }] });

describe('subagents (agentTool)', () => {
  it('runs the child on the parent harness: its write asks the parent approver once; events nest; histories stay apart', async () => {
    const { harness, writes, runs, asked } = await policedHarness();
    const child = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { toolCalls: [{ name: 'write_file', arguments: { path: 'summary.md' } }] }, { text: 'Wrote summary.md.' }], { id: 'mock:child' });
    harness.tools.register(agentTool({ name: 'researcher', description: 'Researches and writes notes.', agent: { model: child, system: 'You research.' } }));
    const parent = createScriptedModel([delegate('summarise notes.md'), { text: 'The researcher wrote summary.md.' }], { id: 'mock:parent' });
    const agent = createAgent({ model: parent, harness });
    const events: AgentEvent[] = [];

    const result = await agent.turn('please summarise', { onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ stopReason: 'stop', text: 'The researcher wrote summary.md.' });
    expect(result.toolResults[0]).toMatchObject({ ok: true, callId: 'p1', content: 'Wrote summary.md.' });
    expect(writes).toEqual(['summary.md']);
    // Asked once, for the child's write; the delegation itself asks nobody.
    expect(asked.map((request) => request.toolName)).toEqual(['write_file']);
    // The child's run works for the parent's call.
    expect(runs[0]!.parentCallKey).toBe(result.steps[0]!.response.toolCalls[0]!.key);
    // The child saw its own history, its system prompt and the task; not the parent's conversation.
    expect(child.requests[0]!.messages).toEqual([{ role: 'system', content: 'You research.' }, { role: 'user', content: 'summarise notes.md' }]);
    // By default the child gets every tool but itself.
    expect(child.requests[0]!.tools.map((tool) => tool.name)).toEqual(['read_file', 'write_file']);
    // The parent's history holds only the call and its answer.
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The child's events appear under the parent's call, between its tool-start and tool-result.
    const kinds = events.map((event) => (event.type === 'subagent' ? `sub:${event.callId}:${event.event.type}` : event.type));
    const start = kinds.indexOf('tool-start');
    const end = kinds.indexOf('tool-result');
    const nested = kinds.slice(start + 1, end);
    expect(nested[0]).toBe('sub:p1:turn-start');
    expect(nested.at(-1)).toBe('sub:p1:turn-end');
    expect(nested.filter((kind) => kind === 'sub:p1:tool-result')).toHaveLength(2);
    expect(kinds.filter((kind) => kind.startsWith('sub:')).length).toBe(nested.length);
    child.assertAllUsed();
    parent.assertAllUsed();
  });

  it('limits the child to the tools named', async () => {
    const { harness, writes } = await policedHarness();
    const child = createScriptedModel([{ toolCalls: [{ name: 'write_file', arguments: { path: 'x' } }] }, { text: 'could not write' }]);
    harness.tools.register(agentTool({ name: 'researcher', description: 'Reads.', agent: { model: child, tools: ['read_file'] } }));
    const parent = createScriptedModel([delegate('write x'), { text: 'ok' }]);
    await createAgent({ model: parent, harness }).turn('go');
    expect(child.requests[0]!.tools.map((tool) => tool.name)).toEqual(['read_file']);
    expect(writes).toEqual([]);
    expect(child.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', isError: true, content: expect.stringContaining('TOOL_NOT_FOUND') });
  });

  it("the parent's abort reaches the child", async () => {
    const { harness } = await policedHarness();
    let childSignal: AbortSignal | undefined;
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const child = createScriptedModel([
      (request: ModelRequest) => {
        childSignal = request.signal;
        markStarted();
        return new Promise<never>((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(request.signal!.reason)));
      },
    ]);
    harness.tools.register(agentTool({ name: 'researcher', description: 'Slow.', agent: { model: child } }));
    const controller = new AbortController();
    const turn = createAgent({ model: createScriptedModel([delegate('wait')]), harness }).turn('go', { signal: controller.signal });
    await started;
    controller.abort();
    const result = await turn;
    expect(childSignal?.aborted).toBe(true);
    expect(result.stopReason).toBe('aborted');
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
  });

  it("the parent's budget reaches the child: its model calls are the parent's spend", async () => {
    const { harness } = await policedHarness();
    const read = { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] };
    const child = createScriptedModel([read, read]);
    harness.tools.register(agentTool({ name: 'researcher', description: 'Loops.', agent: { model: child } }));
    const agent = createAgent({ model: createScriptedModel([delegate('loop')]), harness, budget: { steps: 3 } });

    const result = await agent.turn('go');

    // Parent step 1, child steps 2 and 3: the child stops before a 4th, and so does the parent.
    expect(child.requests).toHaveLength(2);
    expect(result.toolResults[0]!.content).toContain('[the subagent stopped early: budget_exhausted: steps]');
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'steps' });
  });

  it('fails NO_PARENT_TURN outside an agent turn, and a child that fails becomes an error result', async () => {
    const { harness } = await policedHarness();
    harness.tools.register(agentTool({ name: 'researcher', description: 'x', agent: { model: createScriptedModel([]) } }));
    const alone = await harness.executeToolCall({ id: 'c', name: 'researcher', arguments: { task: 't' } });
    expect(alone).toMatchObject({ ok: false, error: { code: 'NO_PARENT_TURN' } });

    const parent = createScriptedModel([delegate('t'), { text: 'the researcher failed' }]);
    const result = await createAgent({ model: parent, harness }).turn('go');
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' } });
    expect(result.toolResults[0]!.content).toContain('beyond the script');
    expect(result.text).toBe('the researcher failed');
  });
});
