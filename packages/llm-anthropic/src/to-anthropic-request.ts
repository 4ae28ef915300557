import type { Message, ModelCallOptions, ModelRequest, ReasoningOption } from '@weir/core';
import { placeBreakpoints, MAX_BREAKPOINTS } from './cache-breakpoints.js';
import { PROVIDER, toAnthropicMessages, type WireBlock } from './to-anthropic-messages.js';

/** Thinking budgets of the levels, in tokens (the API's least is 1024). */
export const REASONING_BUDGETS = { low: 2_048, medium: 8_192, high: 24_576 } as const;

/** A request body, and what could not be honoured. */
export interface WireRequest {
  readonly body: Record<string, unknown>;
  readonly warnings: readonly string[];
  /** True when the body asks for a cache TTL of one hour (it needs the beta header). */
  readonly longCache: boolean;
}

/**
 * The Messages API body of one call (`stream: true`): `model`, `max_tokens` (the call's
 * `maxOutputTokens`, else `defaultMaxTokens`), `system`, `messages`, `tools`, `tool_choice`,
 * `thinking`, `temperature`, with cache breakpoints placed (`cache` absent is `'auto'`). Options
 * the API cannot take together are dropped with a warning: `temperature` with thinking on; thinking
 * with a forced tool choice, or when the tool loop in progress began without this provider's
 * thinking (a fallback from another model: the API would refuse the turn). Never throws.
 */
export function toAnthropicRequest(request: ModelRequest, model: string, defaultMaxTokens: number): WireRequest {
  const options: ModelCallOptions = request.options ?? {};
  const warnings: string[] = [];
  const history = toAnthropicMessages(request.messages);
  const tools: WireBlock[] = request.tools.map((tool) => ({ type: 'custom', name: tool.name, description: tool.description, input_schema: tool.parameters }));
  for (const tool of tools) if (tool['description'] === undefined || tool['description'] === '') delete tool['description'];
  // `type: 'custom'` is the API's default for client tools: leave it out, as the API's own examples do.
  for (const tool of tools) delete (tool as Record<string, unknown>)['type'];

  let budget = thinkingBudget(options.reasoning);
  const forced = options.toolChoice === 'required' || typeof options.toolChoice === 'object';
  if (budget !== undefined && forced) {
    warnings.push('anthropic: thinking cannot be on while a tool choice forces a tool; thinking was off for that call.');
    budget = undefined;
  }
  if (budget !== undefined && loopBeganWithoutThinking(request.messages)) {
    warnings.push('anthropic: the tool loop in progress began without Claude thinking (another model answered it); thinking was off until the loop ends.');
    budget = undefined;
  }
  let maxTokens = options.maxOutputTokens ?? defaultMaxTokens;
  if (budget !== undefined && budget >= maxTokens) {
    if (options.maxOutputTokens !== undefined) warnings.push(`anthropic: max_tokens must exceed the thinking budget (${budget}); max_tokens was raised to ${budget + 4_096}.`);
    maxTokens = budget + 4_096;
  }

  const body: Record<string, unknown> = { model, max_tokens: maxTokens };
  const cache = options.cache ?? 'auto';
  const placed = placeBreakpoints(cache, history, tools);
  if (placed.dropped > 0) warnings.push(`anthropic: at most ${MAX_BREAKPOINTS} cache breakpoints per request; ${placed.dropped} were not placed.`);
  if (history.system.length > 0) body['system'] = history.system;
  body['messages'] = history.messages;
  if (tools.length > 0) body['tools'] = tools;
  const choice = toolChoice(options.toolChoice, tools.length > 0);
  if (choice !== undefined) body['tool_choice'] = choice;
  if (budget !== undefined) body['thinking'] = { type: 'enabled', budget_tokens: budget };
  if (options.temperature !== undefined) {
    if (budget !== undefined) warnings.push('anthropic: temperature cannot be set while thinking is on; it was left out.');
    else body['temperature'] = options.temperature;
  }
  body['stream'] = true;
  return { body, warnings, longCache: cache !== 'auto' && cache !== 'off' && cache.ttl === '1h' };
}

function thinkingBudget(reasoning: ReasoningOption | undefined): number | undefined {
  if (reasoning === undefined || reasoning === 'off') return undefined;
  if (typeof reasoning === 'object') return Math.max(1_024, reasoning.budgetTokens);
  return REASONING_BUDGETS[reasoning];
}

function toolChoice(choice: ModelCallOptions['toolChoice'], hasTools: boolean): Record<string, unknown> | undefined {
  if (choice === undefined || !hasTools) return undefined;
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

/**
 * True when the last assistant message, answered by tool results and not yet by a user's text, has
 * tool calls but no thinking of this provider: with thinking on, the API refuses such a turn.
 */
function loopBeganWithoutThinking(messages: readonly Message[]): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user') return false;
    if (message.role !== 'assistant') continue;
    if ((message.toolCalls ?? []).length === 0) return false;
    return !(message.parts ?? []).some((part) => part.type === 'reasoning' && part.providerData?.[PROVIDER] !== undefined);
  }
  return false;
}
