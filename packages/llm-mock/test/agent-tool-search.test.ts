import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, FINAL_ANSWER_TOOL, TOOL_SEARCH_TOOL, type ToolDefinition } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { harnessWith } from './support.js';

const ran: string[] = [];
const topics = ['invoice', 'customer', 'calendar', 'ticket', 'report'];
const verbs = ['list', 'create', 'archive', 'export'];
/** Twenty tools with real-looking schemas: enough to pass a small threshold. */
const tools: ToolDefinition[] = topics.flatMap((topic) =>
  verbs.map((verb) =>
    defineTool({
      name: `${verb}_${topic}`,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)}s ${topic} records of the account.`,
      tier: 'read-only',
      parameters: { type: 'object', properties: { id: { type: 'string', description: `The ${topic}'s id.` } }, additionalProperties: false },
      execute: ({ id }) => {
        ran.push(`${verb}_${topic}:${String(id)}`);
        return `${verb} ${topic} ${String(id)}: done`;
      },
    }),
  ),
);
const names = (request: { tools: readonly { name: string }[] }) => request.tools.map((tool) => tool.name);

describe('tool search', () => {
  it('past the threshold a step offers tool_search; a find joins the offer for the rest of the turn; an unfound call is refused', async () => {
    ran.length = 0;
    const harness = harnessWith(...tools);
    const model = createScriptedModel([
      { toolCalls: [{ id: 'early', name: 'archive_ticket', arguments: { id: 't1' } }, { id: 's1', name: TOOL_SEARCH_TOOL, arguments: { query: 'archive a ticket', limit: 1 } }] },
      { toolCalls: [{ id: 'a', name: 'archive_ticket', arguments: { id: 't1' } }, { id: 's2', name: TOOL_SEARCH_TOOL, arguments: { query: 'export_report' } }] },
      { toolCalls: [{ id: 'e', name: 'export_report', arguments: { id: 'r9' } }] },
      { text: 'archived and exported' },
      // The next turn starts with nothing found.
      { text: 'again' },
    ]);
    const agent = createAgent({ model, harness, toolSearch: { threshold: 100 } });

    const result = await agent.turn('archive t1, export r9');

    expect(model.requests.map(names)).toEqual([[TOOL_SEARCH_TOOL], [TOOL_SEARCH_TOOL, 'archive_ticket'], [TOOL_SEARCH_TOOL, 'archive_ticket', 'export_report'], [TOOL_SEARCH_TOOL, 'archive_ticket', 'export_report']]);
    expect(model.requests[0]!.tools[0]!.description).toContain('Tools that can be found: list_invoice, create_invoice,');
    // The found tool's schema is the registry's own, the same object at every step.
    expect(model.requests[2]!.tools[1]).toBe(harness.tools.schemas().find((tool) => tool.name === 'archive_ticket'));
    expect(model.requests[2]!.tools[0]).toBe(model.requests[1]!.tools[0]);
    expect(result.toolResults.map((r) => [r.callId, r.ok ? 'ok' : r.error.code])).toEqual([['early', 'TOOL_NOT_FOUND'], ['s1', 'ok'], ['a', 'ok'], ['s2', 'ok'], ['e', 'ok']]);
    expect(result.toolResults[0]!.content).toContain('The tool "archive_ticket" is not loaded yet. Call tool_search');
    expect(result.toolResults[1]!.content).toContain('- archive_ticket: Archives ticket records of the account.');
    expect(ran).toEqual(['archive_ticket:t1', 'export_report:r9']);
    await agent.turn('again');
    expect(names(model.requests[4]!)).toEqual([TOOL_SEARCH_TOOL]);
    model.assertAllUsed();
  });

  it('under the threshold, or with when: never, every schema is sent as the registry has it', async () => {
    const harness = harnessWith(...tools);
    for (const toolSearch of [{ threshold: 1_000_000 }, { when: 'never' as const }]) {
      const model = createScriptedModel([{ text: 'ok' }]);
      await createAgent({ model, harness, toolSearch }).turn('hi');
      expect(model.requests[0]!.tools).toBe(harness.tools.schemas());
    }
  });

  it('keeps final_answer offered beside tool_search, and searches only what prepareStep offers', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: 's', name: TOOL_SEARCH_TOOL, arguments: { query: 'invoice' } }] },
      { toolCalls: [{ id: 'f', name: FINAL_ANSWER_TOOL, arguments: { n: 1 } }] },
    ]);
    const agent = createAgent({ model, harness: harnessWith(...tools), toolSearch: { when: 'always' }, prepareStep: () => ({ tools: ['list_invoice', 'list_customer'] }) });

    const result = await agent.turn('go', { output: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } });

    expect(model.requests.map(names)).toEqual([[TOOL_SEARCH_TOOL, FINAL_ANSWER_TOOL], [TOOL_SEARCH_TOOL, 'list_invoice', FINAL_ANSWER_TOOL]]);
    expect(model.requests[0]!.tools[0]!.description).toContain('Tools that can be found: list_invoice, list_customer.');
    expect(result.output).toEqual({ n: 1 });
  });
});
