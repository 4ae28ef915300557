import { describe, expect, it } from 'vitest';
import { BudgetMeter, checkBudget, costOf } from './budget.js';

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

  it('prices cache reads and writes each at its own rate (Anthropic bills writes above input)', () => {
    const price = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 };
    // 1M input of which 600k read and 300k written: 100k fresh.
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 600_000, cacheWriteTokens: 300_000 };
    // 100k * 3 + 600k * 0.3 + 300k * 3.75 + 100k * 15 = 0.3 + 0.18 + 1.125 + 1.5
    expect(costOf(usage, price)).toBeCloseTo(3.105);
    // A write price left out is the input price; a read price left out falls back to the older name.
    expect(costOf(usage, { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 })).toBeCloseTo(0.3 + 0.18 + 0.9 + 1.5);
  });

  it("uses a model's stated price when the budget names none, and fails closed without either", () => {
    expect(() => checkBudget({ costUsd: 1 })).toThrow(TypeError);
    const meter = new BudgetMeter(checkBudget({ costUsd: 1 }, true));
    meter.charge('anthropic:claude', { inputTokens: 100_000, outputTokens: 10_000 }, true, { inputPerMillion: 3, outputPerMillion: 15 });
    expect(meter.spent.costUsd).toBeCloseTo(0.45);
    expect(meter.exhausted()).toBeUndefined();
    meter.charge('other', { inputTokens: 1, outputTokens: 1 });
    expect(meter.unpriced).toBe('other');
    expect(meter.exhausted()).toBe('costUsd');
  });
});
