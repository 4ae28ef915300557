import type { Usage } from '@weir/core';

/**
 * The SDK's usage as weir's: spec v3 and v4 report `inputTokens.total` with cache reads and writes
 * in it and `outputTokens.total` with reasoning in it, which is weir's convention, and the parts
 * apart (`cacheRead`, `cacheWrite`, `reasoning`); spec v2 reports flat `inputTokens`,
 * `outputTokens`, `cachedInputTokens`, `reasoningTokens` (whether its input counts the cache is the
 * provider's convention). `undefined` when neither count was reported; an unreported field stays absent.
 */
export function toWeirUsage(usage: unknown): Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as Record<string, any>;
  const nested = typeof u.inputTokens === 'object' && u.inputTokens !== null;
  const input: unknown = nested ? u.inputTokens.total : u.inputTokens;
  const output: unknown = nested ? u.outputTokens?.total : u.outputTokens;
  if (!isCount(input) && !isCount(output)) return undefined;
  const cacheRead: unknown = nested ? u.inputTokens.cacheRead : u.cachedInputTokens;
  const cacheWrite: unknown = nested ? u.inputTokens.cacheWrite : undefined;
  const reasoning: unknown = nested ? u.outputTokens?.reasoning : u.reasoningTokens;
  return {
    inputTokens: isCount(input) ? input : 0,
    outputTokens: isCount(output) ? output : 0,
    ...(isCount(cacheRead) ? { cacheReadTokens: cacheRead, cachedInputTokens: cacheRead } : {}),
    ...(isCount(cacheWrite) ? { cacheWriteTokens: cacheWrite } : {}),
    ...(isCount(reasoning) ? { reasoningTokens: reasoning } : {}),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
