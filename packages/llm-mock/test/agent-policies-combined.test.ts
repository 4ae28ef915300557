import { describe, expect, it } from 'vitest';
import {
  agentTool,
  createAgent,
  createHarness,
  defineTool,
  definePlugin,
  fallbackModel,
  FINAL_ANSWER_TOOL,
  SUMMARY_PREFIX,
  type AgentEvent,
  type ApprovalRequest,
  type Message,
} from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { createMemorySessionStore } from '@weir/session';
import { readFileTool } from './support.js';

const rateLimited = () => {
  throw Object.assign(new Error('429 from the primary'), { code: 'RATE_LIMITED', status: 429 });
};
const usage = { inputTokens: 1_000, outputTokens: 100 };

describe('run policies together', () => {
  it('budget, fallback, prepareStep, compaction, a structured answer and a subagent in one turn', async () => {
    const writes: string[] = [];
    const asked: ApprovalRequest[] = [];
    const harness = createHarness();
    harness.tools.register(readFileTool({ 'notes.md': 'weirs hold water back', 'todo.md': 'publish' }));
    harness.tools.register(
      defineTool({ name: 'write_file', description: 'Writes.', tier: 'write', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, execute: ({ path }) => (writes.push(path), `wrote ${path}`) }),
    );
    await harness.use(
      definePlugin({
        name: 'ask-for-writes',
        setup(ctx) {
          ctx.guards.add((call) => (call.tier === 'read-only' ? { decision: 'allow' } : { decision: 'ask' }));
          ctx.approval.setResponder((request) => (asked.push(request), { decision: 'allow' }));
        },
      }),
    );
    const child = createScriptedModel(
      [{ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }], usage }, { toolCalls: [{ name: 'write_file', arguments: { path: 'summary.md' } }], usage }, { text: 'Wrote summary.md.', usage }],
      { id: 'mock:child' },
    );
    harness.tools.register(agentTool({ name: 'researcher', description: 'Researches and writes notes.', agent: { model: child } }));

    const primary = createScriptedModel(
      [
        rateLimited,
        // Step 2: write_file is not offered at this step; read_file is.
        { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'sneaky.md' } }, { id: 'r', name: 'read_file', arguments: { path: 'todo.md' } }], usage },
        { toolCalls: [{ name: FINAL_ANSWER_TOOL, arguments: { answer: 'done' } }], usage },
        { toolCalls: [{ name: FINAL_ANSWER_TOOL, arguments: { answer: 'done', files: ['summary.md'] } }], usage },
      ],
      { id: 'mock:primary' },
    );
    const secondary = createScriptedModel([{ toolCalls: [{ id: 'd', name: 'researcher', arguments: { task: 'summarise notes.md into summary.md' } }], usage }], { id: 'mock:secondary' });
    const summarizer = createScriptedModel([{ text: 'The researcher wrote summary.md.', usage }, { text: 'summary.md written; todo.md says publish.', usage }], { id: 'mock:summarizer' });
    const price = { inputPerMillion: 1, outputPerMillion: 2 };
    const prices = { 'mock:primary': price, 'mock:secondary': price, 'mock:child': price, 'mock:summarizer': price };
    const session = await (createMemorySessionStore()).create();
    const events: AgentEvent[] = [];

    const agent = createAgent({
      model: fallbackModel([primary, secondary]),
      harness,
      system: 'You coordinate.',
      session,
      // Parent 4 + child 3 + 2 summaries = 9 model calls: exactly the budget.
      budget: { steps: 9, costUsd: 1, prices },
      prepareStep: ({ step }) => ({ tools: step === 1 ? ['researcher'] : ['read_file'] }),
      compact: { maxTokens: 6, keepSteps: 1, model: summarizer, countTokens: (messages: readonly Message[]) => messages.length },
    });

    const result = await agent.turn('get the notes summarised', {
      output: { type: 'object', properties: { answer: { type: 'string' }, files: { type: 'array', items: { type: 'string' } } }, required: ['answer', 'files'] } as const,
      onEvent: (event) => events.push(event),
    });

    expect(result).toMatchObject({ stopReason: 'stop', output: { answer: 'done', files: ['summary.md'] } });
    // Fallback: step 1 answered by the secondary after the primary's 429.
    expect(result.steps.map((step) => step.model)).toEqual(['mock:secondary', 'mock:primary', 'mock:primary', 'mock:primary']);
    // prepareStep: the tools of each step, final_answer added for the structured answer.
    expect(primary.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['researcher', FINAL_ANSWER_TOOL],
      ['read_file', FINAL_ANSWER_TOOL],
      ['read_file', FINAL_ANSWER_TOOL],
      ['read_file', FINAL_ANSWER_TOOL],
    ]);
    expect(result.toolResults.find((r) => r.callId === 'w')).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    // The subagent: on the parent's harness, one approval for its one write, nothing else written.
    expect(writes).toEqual(['summary.md']);
    expect(asked.map((request) => request.toolName)).toEqual(['write_file']);
    expect(events.some((event) => event.type === 'subagent' && event.callId === 'd' && event.event.type === 'turn-end')).toBe(true);
    // Structured answer: the first (missing files) went back with the failing path.
    expect(result.toolResults.filter((r) => r.toolName === FINAL_ANSWER_TOOL).map((r) => r.ok)).toEqual([false, true]);
    expect(result.toolResults.find((r) => r.toolName === FINAL_ANSWER_TOOL && !r.ok)!.content).toContain('/files: is required');
    // Compaction: twice, the system message first, every call paired; the session agrees.
    expect(events.filter((event) => event.type === 'compaction')).toHaveLength(2);
    expect(agent.messages[0]).toEqual({ role: 'system', content: 'You coordinate.' });
    expect(agent.messages[1]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}summary.md written; todo.md says publish.` });
    expect(session.history().messages).toEqual(agent.messages);
    for (const model of [primary, secondary, child, summarizer]) model.assertAllUsed();

    // The budget counted every model call: the next turn with the same budget stops... after its own 9.
    // (Each turn has its own budget; here the spend stayed under $1: 9 calls of 1,000 in / 100 out = $0.0108.)
    expect(result.usage).toEqual({ inputTokens: 4_000, outputTokens: 400 });
  });
});
