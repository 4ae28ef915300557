import type { Usage } from './model.js';

const OPTIONAL = ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

/**
 * The sum of two usages. Absent usage stays absent: a turn where no step reported usage has none.
 * An optional count is present in the sum when either side reported it.
 */
export function addUsage(total: Usage | undefined, step: Usage | undefined): Usage | undefined {
  if (step === undefined) return total;
  if (total === undefined) return step;
  const sum: { -readonly [K in keyof Usage]: Usage[K] } = { inputTokens: total.inputTokens + step.inputTokens, outputTokens: total.outputTokens + step.outputTokens };
  for (const name of OPTIONAL) {
    if (total[name] !== undefined || step[name] !== undefined) sum[name] = (total[name] ?? 0) + (step[name] ?? 0);
  }
  return sum;
}

/** Input tokens read from the cache, by either name; 0 when not reported. */
export function cacheReadOf(usage: Usage): number {
  return usage.cacheReadTokens ?? usage.cachedInputTokens ?? 0;
}
