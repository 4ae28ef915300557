import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { BudgetMeter } from './budget.js';
import { turnBudgetOf } from './turn-budget.js';
import { lendScope } from './turn-scope.js';

describe('turnBudgetOf', () => {
  it("charges the turn's meter (and its parent's) and reports the limit a next call would exceed", () => {
    const parent = new BudgetMeter({ outputTokens: 100 });
    const meter = new BudgetMeter({ steps: 2 }, parent);
    const run = { id: 'turn-1' };
    lendScope(run, { harness: createHarness(), budget: meter, emit: undefined });
    const budget = turnBudgetOf(run)!;
    expect(budget.exhausted(10)).toBeUndefined();
    budget.charge('mock:side', { inputTokens: 10, outputTokens: 100 });
    expect(meter.spent).toMatchObject({ steps: 1, inputTokens: 10, outputTokens: 100 });
    expect(budget.exhausted(10)).toBe('outputTokens');
    budget.charge('mock:side', { inputTokens: 1, outputTokens: 0 });
    expect(budget.exhausted(0)).toBe('steps');
  });

  it('is undefined outside a turn or for a turn without a budget', () => {
    const run = { id: 'turn-2' };
    expect(turnBudgetOf(run)).toBeUndefined();
    lendScope(run, { harness: createHarness(), budget: undefined, emit: undefined });
    expect(turnBudgetOf(run)).toBeUndefined();
    expect(turnBudgetOf(undefined)).toBeUndefined();
  });
});
