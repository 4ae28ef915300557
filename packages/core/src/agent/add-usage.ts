import type { Usage } from './model.js';

/** The sum of two usages. Absent usage stays absent: a turn where no step reported usage has none. */
export function addUsage(total: Usage | undefined, step: Usage | undefined): Usage | undefined {
  if (step === undefined) return total;
  if (total === undefined) return step;
  const cached =
    total.cachedInputTokens === undefined && step.cachedInputTokens === undefined
      ? undefined
      : (total.cachedInputTokens ?? 0) + (step.cachedInputTokens ?? 0);
  const inputTokens = total.inputTokens + step.inputTokens;
  const outputTokens = total.outputTokens + step.outputTokens;
  return cached === undefined ? { inputTokens, outputTokens } : { inputTokens, outputTokens, cachedInputTokens: cached };
}
