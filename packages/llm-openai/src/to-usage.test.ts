import { describe, expect, it } from 'vitest';
import { toUsage } from './to-usage.js';

describe('toUsage', () => {
  it('maps prompt and completion tokens, and cached input tokens when reported', () => {
    expect(toUsage({ prompt_tokens: 812, completion_tokens: 3, total_tokens: 815, prompt_tokens_details: { cached_tokens: 768 } })).toEqual({
      inputTokens: 812,
      outputTokens: 3,
      cachedInputTokens: 768,
    });
    expect(toUsage({ prompt_tokens: 9, completion_tokens: 2 })).toEqual({ inputTokens: 9, outputTokens: 2 });
  });

  it.each([undefined, null, {}, { prompt_tokens: 3 }, { prompt_tokens: null, completion_tokens: null }, { prompt_tokens: -1, completion_tokens: 2 }])(
    'is undefined, never zeros, for %j',
    (wire) => {
      expect(toUsage(wire)).toBeUndefined();
    },
  );
});
