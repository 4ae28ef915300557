import type { Usage } from '@weir/core';
import { isRecord } from './is-record.js';

/**
 * Reads a wire `usage` object: `prompt_tokens` and `completion_tokens`, and the cached input tokens
 * (`prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`). Returns
 * `undefined` when usage is absent, `null` or lacks either count: unknown usage is never zeros.
 * Never throws.
 */
export function toUsage(wire: unknown): Usage | undefined {
  if (!isRecord(wire)) return undefined;
  const input = count(wire['prompt_tokens']);
  const output = count(wire['completion_tokens']);
  if (input === undefined || output === undefined) return undefined;
  const details = isRecord(wire['prompt_tokens_details']) ? wire['prompt_tokens_details'] : {};
  const cached = count(details['cached_tokens']) ?? count(wire['prompt_cache_hit_tokens']);
  return cached === undefined ? { inputTokens: input, outputTokens: output } : { inputTokens: input, outputTokens: output, cachedInputTokens: cached };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
