import type { ModelCallOptions } from '@weir/core';

/** What the call options become in a Responses API body, and what could not be honoured. */
export interface ResponsesOptionFields {
  readonly fields: Record<string, unknown>;
  readonly warnings: string[];
}

const EFFORT = { low: 'low', medium: 'medium', high: 'high' } as const;

/**
 * Maps weir's per-call options to Responses API fields: `maxOutputTokens` → `max_output_tokens`,
 * `temperature` → `temperature`, `reasoning` → `reasoning: { effort, summary: 'auto' }` (`'off'` is
 * effort `minimal`; a token budget has no equal here, so it becomes the nearest effort, with a
 * warning), `toolChoice` → `tool_choice` (`{ name }` → `{ type: 'function', name }`). `cache`: the
 * API caches prefixes by itself; `'off'` or explicit breakpoints cannot be honoured (a warning).
 * Never throws.
 */
export function responsesCallOptions(options: ModelCallOptions | undefined): ResponsesOptionFields {
  const fields: Record<string, unknown> = {};
  const warnings: string[] = [];
  if (options === undefined) return { fields, warnings };
  if (options.maxOutputTokens !== undefined) fields['max_output_tokens'] = options.maxOutputTokens;
  if (options.temperature !== undefined) fields['temperature'] = options.temperature;
  const reasoning = options.reasoning;
  if (reasoning === 'off') fields['reasoning'] = { effort: 'minimal' };
  else if (typeof reasoning === 'string') fields['reasoning'] = { effort: EFFORT[reasoning], summary: 'auto' };
  else if (reasoning !== undefined) {
    const effort = reasoning.budgetTokens < 4_096 ? 'low' : reasoning.budgetTokens < 16_384 ? 'medium' : 'high';
    fields['reasoning'] = { effort, summary: 'auto' };
    warnings.push(`The Responses API takes a reasoning effort, not a token budget: reasoning { budgetTokens: ${reasoning.budgetTokens} } was sent as effort '${effort}'.`);
  }
  const choice = options.toolChoice;
  if (choice !== undefined) fields['tool_choice'] = typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
  if (options.cache !== undefined && options.cache !== 'auto') {
    warnings.push('The Responses API caches prompt prefixes by itself: cache breakpoints and cache: \'off\' cannot be honoured.');
  }
  return { fields, warnings };
}
