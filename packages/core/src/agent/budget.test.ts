import { describe, expect, it } from 'vitest';
import { BudgetMeter, checkBudget } from './budget.js';

describe('BudgetMeter', () => {
  it('a child charges its parent; the parent limit stops the child, the child does not project the parent', () => {
    const parent = new BudgetMeter({ inputTokens: 1_000 });
    const child = new BudgetMeter({}, parent);
    parent.charge('m', { inputTokens: 100, outputTokens: 0 });
    child.charge('m', { inputTokens: 500, outputTokens: 0 });
    // The child projects its own last input (500): 600 + 500 > 1,000.
    expect(child.exhausted()).toBe('inputTokens');
    // The parent projects its own last input (100): 600 + 100 <= 1,000.
    expect(parent.exhausted()).toBeUndefined();
    expect(parent.spent).toMatchObject({ steps: 2, inputTokens: 600 });
  });

  it('prices cached input at its own rate', () => {
    const meter = new BudgetMeter(checkBudget({ costUsd: 10, prices: { m: { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 } } }));
    meter.charge('m', { inputTokens: 1_000_000, outputTokens: 500_000, cachedInputTokens: 400_000 });
    // 600k * $2 + 400k * $0.5 + 500k * $8 = 1.2 + 0.2 + 4
    expect(meter.spent.costUsd).toBeCloseTo(5.4);
  });

  it('a zero limit allows nothing', () => {
    expect(new BudgetMeter({ steps: 0 }).exhausted()).toBe('steps');
    expect(new BudgetMeter({ outputTokens: 0 }).exhausted()).toBe('outputTokens');
  });
});
