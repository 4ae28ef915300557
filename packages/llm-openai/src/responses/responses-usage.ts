import type { Usage } from '@weir/core';
import { isRecord } from '../is-record.js';

/**
 * Reads a Responses API `usage` object: `input_tokens` (cached tokens included, as OpenAI counts
 * them) and `output_tokens` (reasoning tokens included), with `input_tokens_details.cached_tokens`
 * as the cached share. Returns `undefined` when usage is absent or `null` (a queued background
 * response) or lacks either count: unknown usage is never zeros. Never throws.
 */
export function toResponsesUsage(wire: unknown): Usage | undefined {
  if (!isRecord(wire)) return undefined;
  const input = count(wire['input_tokens']);
  const output = count(wire['output_tokens']);
  if (input === undefined || output === undefined) return undefined;
  const cached = isRecord(wire['input_tokens_details']) ? count(wire['input_tokens_details']['cached_tokens']) : undefined;
  return cached === undefined ? { inputTokens: input, outputTokens: output } : { inputTokens: input, outputTokens: output, cachedInputTokens: cached };
}

/** `output_tokens_details.reasoning_tokens`, when reported. Never throws. */
export function reasoningTokensOf(wire: unknown): number | undefined {
  if (!isRecord(wire) || !isRecord(wire['output_tokens_details'])) return undefined;
  return count(wire['output_tokens_details']['reasoning_tokens']);
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
