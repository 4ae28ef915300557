import type { ModelCallOptions } from '@weir/core';

/** What the call options become in a Gemini body, and what could not be honoured. */
export interface GeminiOptionFields {
  readonly generationConfig: Record<string, unknown>;
  readonly thinkingConfig: Record<string, unknown>;
  readonly toolConfig: Record<string, unknown> | undefined;
  readonly warnings: string[];
}

/** Thinking budgets for the levels on models that take a budget (gemini-2.5). */
const BUDGET = { low: 1_024, medium: 8_192, high: 24_576 } as const;

/**
 * Maps weir's per-call options to Gemini fields: `maxOutputTokens` and `temperature` into
 * `generationConfig`; `reasoning` into `thinkingConfig` (gemini-3 models take `thinkingLevel`:
 * `low`, or `high` for medium and high; `'off'` cannot be honoured there, so it is `low` with a
 * warning; other models take `thinkingBudget`: 0 for `'off'`, 1 024, 8 192 and 24 576 for the levels,
 * or the budget given); `toolChoice` into `toolConfig.functionCallingConfig` (`AUTO`, `NONE`, `ANY`,
 * or `ANY` with `allowedFunctionNames` for one tool). `cache`: Gemini caches implicitly; `'off'` or
 * breakpoints cannot be honoured (a warning). Never throws.
 */
export function geminiCallOptions(options: ModelCallOptions | undefined, model: string): GeminiOptionFields {
  const generationConfig: Record<string, unknown> = {};
  const thinkingConfig: Record<string, unknown> = {};
  const warnings: string[] = [];
  let toolConfig: Record<string, unknown> | undefined;
  if (options === undefined) return { generationConfig, thinkingConfig, toolConfig, warnings };
  if (options.maxOutputTokens !== undefined) generationConfig['maxOutputTokens'] = options.maxOutputTokens;
  if (options.temperature !== undefined) generationConfig['temperature'] = options.temperature;
  const reasoning = options.reasoning;
  if (reasoning !== undefined) {
    if (/^gemini-3/.test(model) && typeof reasoning === 'string') {
      if (reasoning === 'off') warnings.push(`Gemini 3 models always think: reasoning 'off' was sent as thinkingLevel 'low'.`);
      thinkingConfig['thinkingLevel'] = reasoning === 'off' || reasoning === 'low' ? 'low' : 'high';
    } else {
      thinkingConfig['thinkingBudget'] = typeof reasoning === 'string' ? (reasoning === 'off' ? 0 : BUDGET[reasoning]) : reasoning.budgetTokens;
    }
  }
  const choice = options.toolChoice;
  if (choice !== undefined) {
    const mode = choice === 'auto' ? 'AUTO' : choice === 'none' ? 'NONE' : 'ANY';
    toolConfig = { functionCallingConfig: { mode, ...(typeof choice === 'object' && { allowedFunctionNames: [choice.name] }) } };
  }
  if (options.cache !== undefined && options.cache !== 'auto') warnings.push("Gemini caches prompt prefixes implicitly: cache breakpoints and cache: 'off' cannot be honoured.");
  return { generationConfig, thinkingConfig, toolConfig, warnings };
}
