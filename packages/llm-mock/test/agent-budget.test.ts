import { describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { harnessWith, readFileTool } from './support.js';

const readA = { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] };
const used = (inputTokens: number, outputTokens: number) => ({ ...readA, usage: { inputTokens, outputTokens } });

describe('budgets', () => {
  it('steps: stops with budget_exhausted before the call that would exceed it, every call answered', async () => {
    const runs: string[] = [];
    const model = createScriptedModel([readA, readA]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs)), budget: { steps: 2 } });

    const result = await agent.turn('loop');

    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'steps' });
    expect(result.steps).toHaveLength(2);
    expect(runs).toHaveLength(2);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'tool', content: 'alpha' });
    model.assertAllUsed();
  });

  it('input tokens: the next call re-sends at least the last input, so it stops before going over', async () => {
    // 400 in after step 1; the next call would send at least 400 more: 800 > 700.
    const model = createScriptedModel([used(400, 10)]);
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { inputTokens: 700 } }).turn('go');
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'inputTokens', usage: { inputTokens: 400, outputTokens: 10 } });
    model.assertAllUsed();
  });

  it('input tokens: goes on while the projection fits', async () => {
    const model = createScriptedModel([used(300, 10), used(350, 10), { text: 'done', usage: { inputTokens: 380, outputTokens: 5 } }]);
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { inputTokens: 1_000 } }).turn('go');
    expect(result).toMatchObject({ stopReason: 'stop', text: 'done' });
    // 300 + 300 <= 1000: step 2 runs; 650 + 350 = 1000 <= 1000: step 3 runs and answers.
    model.assertAllUsed();
  });

  it('output tokens: stops once they are spent', async () => {
    const model = createScriptedModel([used(10, 60), used(10, 50)]);
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { outputTokens: 100 } }).turn('go');
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'outputTokens' });
    expect(result.steps).toHaveLength(2);
  });

  it('cost: priced per model id from the caller\'s table', async () => {
    const model = createScriptedModel([used(1_000_000, 0), used(1_000_000, 0)], { id: 'mock:priced' });
    const prices = { 'mock:priced': { inputPerMillion: 1, outputPerMillion: 4 } };
    // $1 after step 1; step 2 would add at least $1 more: $2 <= $2.5 runs, then $3 > $2.5 stops.
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { costUsd: 2.5, prices } }).turn('go');
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'costUsd' });
    expect(result.steps).toHaveLength(2);
  });

  it('cost: a model missing from the price table fails closed', async () => {
    const model = createScriptedModel([used(10, 10)], { id: 'mock:unpriced' });
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { costUsd: 100, prices: {} } }).turn('go');
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'costUsd' });
    expect(result.steps).toHaveLength(1);
  });

  it('tokens are estimated when the provider reports no usage', async () => {
    const big = 'x'.repeat(4_000); // about 1,000 tokens
    const model = createScriptedModel([readA]);
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { inputTokens: 1_500 } }).turn(big);
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'inputTokens' });
  });

  it('wall time: checked between steps', async () => {
    const model = createScriptedModel([async () => { await new Promise((resolve) => setTimeout(resolve, 60)); return readA; }]);
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { wallMs: 30 } }).turn('go');
    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'wallMs' });
    expect(result.steps).toHaveLength(1);
  });

  it('each turn has its own budget, and the stop is recorded in the turn-end event', async () => {
    const model = createScriptedModel([readA, readA]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), budget: { steps: 1 } });
    const events: AgentEvent[] = [];
    expect((await agent.turn('one', { onEvent: (event) => events.push(event) })).budget).toBe('steps');
    expect((await agent.turn('two')).steps).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', result: { stopReason: 'budget_exhausted', budget: 'steps' } });
    model.assertAllUsed();
  });

  it('a turn that ends within its budget is a normal stop, with no budget field', async () => {
    const model = createScriptedModel([{ text: 'hi' }]);
    const result = await createAgent({ model, harness: harnessWith(), budget: { steps: 5 } }).turn('hello');
    expect(result).toMatchObject({ stopReason: 'stop', text: 'hi' });
    expect('budget' in result).toBe(false);
  });

  it('rejects a malformed budget at createAgent', () => {
    const model = createScriptedModel([]);
    const harness = harnessWith();
    expect(() => createAgent({ model, harness, budget: { steps: -1 } })).toThrow(TypeError);
    expect(() => createAgent({ model, harness, budget: { costUsd: 1 } })).toThrow(/prices/);
    expect(() => createAgent({ model, harness, budget: { tokens: 5 } as never })).toThrow(/unknown limit "tokens"/);
    expect(() => createAgent({ model, harness, budget: { costUsd: 1, prices: { m: { inputPerMillion: -1, outputPerMillion: 1 } } } })).toThrow(TypeError);
  });
});
