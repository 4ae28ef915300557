import { createAgent, createHarness, definePlugin, TOOL_SEARCH_TOOL, type Harness } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { fixture, NODE } from './servers.js';

// Five servers of forty tools each (the scripted server's catalogs): the context a user with five
// MCP servers loaded starts from.
const THEMES = ['billing', 'calendar', 'crm', 'storage', 'tickets'];
let harness: Harness;
const stages: string[] = [];

beforeAll(async () => {
  harness = createHarness();
  await Promise.all(THEMES.map((theme) => harness.use(mcpServer({ name: theme, command: NODE, args: [fixture('scripted-server.mjs'), `--catalog=${theme}`], tiers: { '*': 'read-only' } }))));
  // One tap on each of the six stages, naming the call it saw.
  await harness.use(
    definePlugin({
      name: 'stage-witness',
      setup(ctx) {
        ctx.hooks.prepareExecution.tap((_value, context) => void stages.push(`prepareExecution ${context.toolName}`));
        ctx.hooks.execute.tap((_dispatch, context) => void stages.push(`execute ${context.toolName}`));
        ctx.hooks.createSuccessResult.tap((_result, context) => void stages.push(`createSuccessResult ${context.toolName}`));
        ctx.hooks.postExecute.tap((_result, context) => void stages.push(`postExecute ${context.toolName}`));
        ctx.hooks.finalizeContent.tap((_content, context) => void stages.push(`finalizeContent ${context.toolName}`));
        ctx.hooks.result.tap((_result, context) => void stages.push(`result ${context.toolName}`));
      },
    }),
  );
}, 60_000);
afterAll(() => harness?.close());

describe('tool search over 200 tools from five MCP servers', () => {
  it('sends tool_search, not the schemas; the search finds the tool, and its call runs through all six stages', async () => {
    const all = harness.tools.schemas();
    expect(all).toHaveLength(200);
    const model = createScriptedModel([
      { toolCalls: [{ id: 's', name: TOOL_SEARCH_TOOL, arguments: { query: 'create a refund' } }] },
      { toolCalls: [{ id: 'r', name: 'billing__create_refund', arguments: { account: 'acme', id: 'inv-7' } }] },
      { text: 'refunded' },
    ]);
    const agent = createAgent({ model, harness });

    const result = await agent.turn('refund invoice inv-7 of acme');

    // Auto mode with the default threshold (10 000 tokens, the mock stating no context window).
    const sent = (step: number) => JSON.stringify(model.requests[step]!.tools).length;
    expect(sent(0)).toBeLessThanOrEqual(JSON.stringify(all).length / 10);
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual([TOOL_SEARCH_TOOL]);
    expect(model.requests[0]!.tools[0]!.description).toContain('200 tools can be found: billing__* (40), calendar__* (40), crm__* (40), storage__* (40), tickets__* (40).');
    const found = result.toolResults[0]!;
    expect(found.ok && found.value).toMatchObject({ tools: expect.arrayContaining(['billing__create_refund']) });
    expect((found.ok ? (found.value as { tools: string[] }).tools : [])[0]).toBe('billing__create_refund');
    expect(model.requests[1]!.tools.map((tool) => tool.name)).toContain('billing__create_refund');
    expect(model.requests[1]!.tools.find((tool) => tool.name === 'billing__create_refund')).toBe(all.find((tool) => tool.name === 'billing__create_refund'));
    expect(result.toolResults[1]).toMatchObject({ ok: true, content: 'billing create_refund: {"account":"acme","id":"inv-7"}' });
    expect(stages).toEqual(['prepareExecution', 'execute', 'createSuccessResult', 'postExecute', 'finalizeContent', 'result'].map((stage) => `${stage} billing__create_refund`));
    expect(result.text).toBe('refunded');
    model.assertAllUsed();
  });
});
