import type { Usage } from '@weir/core';
import { isRecord } from '../is-record.js';

/**
 * Reads a Responses API `usage` object: `input_tokens` (cached tokens included, as OpenAI counts
 * them, as weir does) and `output_tokens` (reasoning tokens included), with
 * `input_tokens_details.cached_tokens` as `cacheReadTokens` (and its older name `cachedInputTokens`)
 * and `output_tokens_details.reasoning_tokens` as `reasoningTokens`. Returns `undefined` when usage is absent or `null` (a queued background
 * response) or lacks either count: unknown usage is never zeros. Never throws.
 */
export function toResponsesUsage(wire: unknown): Usage | undefined {
  if (!isRecord(wire)) return undefined;
  const input = count(wire['input_tokens']);
  const output = count(wire['output_tokens']);
  if (input === undefined || output === undefined) return undefined;
  const cached = isRecord(wire['input_tokens_details']) ? count(wire['input_tokens_details']['cached_tokens']) : undefined;
  const reasoning = isRecord(wire['output_tokens_details']) ? count(wire['output_tokens_details']['reasoning_tokens']) : undefined;
  return {
    inputTokens: input,
    outputTokens: output,
    ...(cached !== undefined && { cacheReadTokens: cached, cachedInputTokens: cached }),
    ...(reasoning !== undefined && { reasoningTokens: reasoning }),
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
