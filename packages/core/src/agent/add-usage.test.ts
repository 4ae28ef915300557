import { describe, expect, it } from 'vitest';
import { addUsage } from './add-usage.js';

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
