import type { Usage } from '@weir/core';
import { isRecord } from './is-record.js';

/**
 * Reads `usageMetadata` as weir counts usage, the way OpenAI's is counted: `inputTokens` is
 * `promptTokenCount` (cached content included) plus `toolUsePromptTokenCount`; `outputTokens` is
 * what is billed as output, `candidatesTokenCount` plus `thoughtsTokenCount` (when
 * `candidatesTokenCount` is missing, `totalTokenCount` less the input); `cachedInputTokens` is
 * `cachedContentTokenCount` (as `cacheReadTokens`, and its older name), `reasoningTokens` is
 * `thoughtsTokenCount`. Returns `undefined` when the counts are not there: unknown usage is
 * never zeros. Never throws.
 */
export function toGeminiUsage(wire: unknown): Usage | undefined {
  if (!isRecord(wire)) return undefined;
  const prompt = count(wire['promptTokenCount']);
  if (prompt === undefined) return undefined;
  const input = prompt + (count(wire['toolUsePromptTokenCount']) ?? 0);
  const candidates = count(wire['candidatesTokenCount']);
  const thoughts = count(wire['thoughtsTokenCount']) ?? 0;
  const total = count(wire['totalTokenCount']);
  const output = candidates !== undefined ? candidates + thoughts : total !== undefined && total >= input ? total - input : undefined;
  if (output === undefined) return undefined;
  const cached = count(wire['cachedContentTokenCount']);
  const reasoning = count(wire['thoughtsTokenCount']);
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
