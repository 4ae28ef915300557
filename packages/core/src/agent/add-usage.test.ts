import { describe, expect, it } from 'vitest';
import { addUsage, cacheReadOf } from './add-usage.js';

describe('addUsage', () => {
  it('keeps absent usage absent', () => {
    expect(addUsage(undefined, undefined)).toBeUndefined();
    expect(addUsage(undefined, { inputTokens: 1, outputTokens: 2 })).toEqual({ inputTokens: 1, outputTokens: 2 });
    expect(addUsage({ inputTokens: 1, outputTokens: 2 }, undefined)).toEqual({ inputTokens: 1, outputTokens: 2 });
  });

  it('adds the counts, cached input tokens only when one side reports them', () => {
    expect(addUsage({ inputTokens: 1, outputTokens: 2 }, { inputTokens: 3, outputTokens: 4 })).toEqual({ inputTokens: 4, outputTokens: 6 });
    expect(addUsage({ inputTokens: 1, outputTokens: 2 }, { inputTokens: 3, outputTokens: 4, cachedInputTokens: 2 })).toEqual({
      inputTokens: 4,
      outputTokens: 6,
      cachedInputTokens: 2,
    });
  });
});

describe('addUsage with cache and reasoning counts', () => {
  it('sums each count either side reported, and keeps the ones neither did absent', () => {
    const a = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 60, cachedInputTokens: 60, cacheWriteTokens: 30 };
    const b = { inputTokens: 120, outputTokens: 20, cacheReadTokens: 90, cachedInputTokens: 90, reasoningTokens: 12 };
    expect(addUsage(a, b)).toEqual({ inputTokens: 220, outputTokens: 30, cacheReadTokens: 150, cachedInputTokens: 150, cacheWriteTokens: 30, reasoningTokens: 12 });
  });

  it('reads cache reads by either name', () => {
    expect(cacheReadOf({ inputTokens: 5, outputTokens: 0, cachedInputTokens: 3 })).toBe(3);
    expect(cacheReadOf({ inputTokens: 5, outputTokens: 0, cacheReadTokens: 4 })).toBe(4);
    expect(cacheReadOf({ inputTokens: 5, outputTokens: 0 })).toBe(0);
  });
});
