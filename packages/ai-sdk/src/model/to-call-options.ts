import type { ModelCallOptions, ModelRequest, ReasoningOption } from '@weir/core';
import type { SpecVersion } from './ai-sdk-language-model.js';

/** The AI SDK call options weir sets (besides `prompt`). */
export interface CallOptions {
  tools?: Record<string, unknown>[];
  toolChoice?: { type: 'auto' | 'none' | 'required' } | { type: 'tool'; toolName: string };
  maxOutputTokens?: number;
  temperature?: number;
  reasoning?: string;
  providerOptions?: Record<string, Record<string, unknown>>;
  abortSignal?: AbortSignal;
}

/** The key of a provider's own `providerOptions` (what its package reads), by its `provider` name's first word. */
const OPTIONS_KEY: Record<string, string> = { anthropic: 'anthropic', openai: 'openai', google: 'google', 'google-vertex': 'google', azure: 'openai' };
const EFFORT_BUDGET = { low: 2_048, medium: 8_192, high: 24_576 } as const;

/**
 * The request's tools and options as AI SDK call options, and a warning line for each option this
 * bridge cannot pass on. `reasoning`: spec v4 has a level of its own (`'off'` is `'none'`); a token
 * budget, and any reasoning on v2 and v3 (which have no such option), go as the provider's own
 * options for Anthropic (`thinking`), OpenAI (`reasoningEffort`) and Google (`thinkingConfig`), and
 * are a warning for any other provider. `cache` hints other than `'auto'` are a warning: the
 * AI SDK has no provider-neutral cache option (Anthropic's `cacheControl` is set per message by the
 * caller's `providerOptions`).
 */
export function toCallOptions(request: ModelRequest, spec: SpecVersion, provider: string, extra: Record<string, Record<string, unknown>> | undefined): { options: CallOptions; warnings: string[] } {
  const options: CallOptions = {};
  const warnings: string[] = [];
  if (request.tools.length > 0) {
    options.tools = request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters }));
  }
  const asked: ModelCallOptions = request.options ?? {};
  const { toolChoice } = asked;
  if (toolChoice !== undefined) options.toolChoice = typeof toolChoice === 'string' ? { type: toolChoice } : { type: 'tool', toolName: toolChoice.name };
  if (asked.maxOutputTokens !== undefined) options.maxOutputTokens = asked.maxOutputTokens;
  if (asked.temperature !== undefined) options.temperature = asked.temperature;
  let providerOptions = extra;
  if (asked.reasoning !== undefined) {
    if (spec === 'v4' && typeof asked.reasoning === 'string') options.reasoning = asked.reasoning === 'off' ? 'none' : asked.reasoning;
    else {
      const key = OPTIONS_KEY[provider.split('.')[0]!];
      const own = key === undefined ? undefined : reasoningOptions(key, asked.reasoning);
      if (own === undefined) warnings.push(`reasoning ${JSON.stringify(asked.reasoning)} is not passed on: provider ${provider} has no reasoning option this bridge knows (set it in fromAiSdk's providerOptions)`);
      else providerOptions = { ...providerOptions, [key!]: { ...own, ...providerOptions?.[key!] } };
    }
  }
  if (asked.cache !== undefined && asked.cache !== 'auto') warnings.push(`cache ${JSON.stringify(asked.cache)} is not passed on: the AI SDK has no provider-neutral cache option (use providerOptions)`);
  if (providerOptions !== undefined) options.providerOptions = providerOptions;
  if (request.signal !== undefined) options.abortSignal = request.signal;
  return { options, warnings };
}

function reasoningOptions(key: string, reasoning: ReasoningOption): Record<string, unknown> | undefined {
  const budget = typeof reasoning === 'object' ? reasoning.budgetTokens : reasoning === 'off' ? 0 : EFFORT_BUDGET[reasoning];
  switch (key) {
    case 'anthropic':
      return budget === 0 ? { thinking: { type: 'disabled' } } : { thinking: { type: 'enabled', budgetTokens: budget } };
    case 'google':
      return { thinkingConfig: budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true } };
    case 'openai':
      // OpenAI takes a level, not a budget: a budget is read as the nearest level.
      return { reasoningEffort: typeof reasoning === 'string' ? (reasoning === 'off' ? 'minimal' : reasoning) : budget <= 4_096 ? 'low' : budget <= 16_384 ? 'medium' : 'high' };
  }
  return undefined;
}
