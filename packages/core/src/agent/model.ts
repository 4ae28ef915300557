import type { ContentPart } from '../tools/content-part.js';
import type { ToolSchema } from '../tools/tool-registry.js';

/** Why the model stopped. Tool calls from a `length`, `content_filter` or `error` turn are never executed. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error';

/**
 * Token counts, when the provider reports them. Absent usage is `undefined`, never zeros; an absent
 * field was not reported (it is not 0). `inputTokens` counts every input token, cache reads and
 * writes included, and `outputTokens` every output token, reasoning included, whatever the
 * provider's own convention (each adapter's README says how it maps them).
 */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`; Anthropic bills them apart). */
  readonly cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  readonly reasoningTokens?: number;
  /** The older name of `cacheReadTokens`: adapters set both, readers take `cacheReadTokens ?? cachedInputTokens`. */
  readonly cachedInputTokens?: number;
}

/**
 * Opaque data a provider attached to a part or a message (a thinking signature, encrypted or
 * redacted reasoning, a Gemini thought signature), keyed by the provider that produced it:
 * `{ anthropic: { signature: '...' } }`. Kept byte for byte through the history, sessions,
 * compaction and forks (values are JSON). An adapter reads only its own key and sends it back
 * exactly; it never sends another provider's data (a fallback drops foreign signatures).
 */
export type ProviderData = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** Visible answer text, in the order the model produced it. */
export interface AssistantTextPart {
  readonly type: 'text';
  readonly text: string;
  readonly providerData?: ProviderData;
}

/**
 * Reasoning: its readable text (`''` when the provider sent none, e.g. Anthropic's redacted
 * thinking) and the provider's opaque data that must go back with it.
 */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly providerData?: ProviderData;
}

/** A tool call, at its place among the parts; the same object as the matching entry of `toolCalls`. */
export interface ToolCallPart {
  readonly type: 'tool-call';
  readonly call: ModelToolCall;
}

/** One piece of an assistant answer. */
export type AssistantPart = AssistantTextPart | ReasoningPart | ToolCallPart;

/** A tool call as the model sent it: arguments as the raw JSON string, or an object. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
  /**
   * The harness's own key for this execution (a UUIDv7), set by the agent loop when the call joins
   * the history: model ids repeat, keys do not. Adapters never send it to a model.
   */
  readonly key?: string;
  /** The provider's opaque data on the call itself (Gemini's thought signature), kept like a part's. */
  readonly providerData?: ProviderData;
}

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  /** The text (all of it when `parts` is absent). */
  readonly content: string;
  /** The whole message when it holds more than text (images, resources); `content` is then its text. */
  readonly parts?: readonly ContentPart[];
}

export interface AssistantMessage {
  readonly role: 'assistant';
  /** The text of the answer; empty when the model only called tools. */
  readonly content: string;
  readonly toolCalls?: readonly ModelToolCall[];
  /** A reasoning model's thinking (DeepSeek's `reasoning_content`), kept apart from the answer. */
  readonly reasoning?: string;
  /**
   * The answer as the model produced it, in order: text, reasoning and tool calls. When present,
   * `content`, `reasoning` and `toolCalls` are derived from it (`partsSummary`) and kept beside it,
   * so a reader that knows only them loses nothing it knew. Absent from older adapters and sessions.
   */
  readonly parts?: readonly AssistantPart[];
  /** Provider data on the message as a whole (an OpenAI Responses id, say). */
  readonly providerData?: ProviderData;
}

export interface ToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolName: string;
  /** The result's text (all of it when `parts` is absent). */
  readonly content: string;
  /**
   * The result's whole content when it holds more than text (`ToolResult.parts`). An adapter whose
   * provider takes images only in user messages sends them after the batch's tool messages.
   */
  readonly parts?: readonly ContentPart[];
  /** True when the call failed: the content is an error the model should read and adapt to. */
  readonly isError?: boolean;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** How hard a model should think: a level, or a budget of reasoning tokens. */
export type ReasoningOption = 'off' | 'low' | 'medium' | 'high' | { readonly budgetTokens: number };

/** Which tools the model may or must call: any (`auto`), none, at least one (`required`), or the one named. */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** Where a prompt-cache breakpoint goes: after the tools, after the system prompt, or after `messages[index]`. */
export type CacheBreakpoint = 'tools' | 'system' | { readonly message: number };

/**
 * Prompt-cache hints. `'auto'` (what an adapter does when none is given): the adapter places its
 * own breakpoints where its provider caches best. `'off'`: none. `{ breakpoints }`: exactly those
 * (an adapter keeps at most its provider's limit, the first ones). `ttl` asks for a longer life
 * where the provider has one (Anthropic: `'1h'`).
 */
export type CacheOption = 'auto' | 'off' | { readonly breakpoints: readonly CacheBreakpoint[]; readonly ttl?: '5m' | '1h' };

/**
 * Per-call options, set by the agent (`modelOptions`) or a step (`prepareStep`'s `options`).
 * Absent means the adapter's default. An adapter that cannot honour one ignores it and says so in
 * `ModelResponse.warnings` (the loop logs each warning once per agent), never silently.
 */
export interface ModelCallOptions {
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly reasoning?: ReasoningOption;
  readonly toolChoice?: ToolChoice;
  readonly cache?: CacheOption;
}

export interface ModelRequest {
  /** The whole history, oldest first. Read it; never change it (the loop does not copy it per step). */
  readonly messages: readonly Message[];
  /** The registry's model view. */
  readonly tools: readonly ToolSchema[];
  readonly signal?: AbortSignal;
  /** This call's options; absent when neither the agent nor the step set any. */
  readonly options?: ModelCallOptions;
}

export interface ModelResponse {
  /** The answer text, `''` when none. */
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly finishReason: FinishReason;
  readonly usage?: Usage;
  readonly reasoning?: string;
  /** The model declined to answer (OpenAI's `refusal`): distinct from an empty answer. */
  readonly refusal?: string;
  /** The id of the model that gave this answer, when a composite model (`fallbackModel`) chose one of its own. */
  readonly model?: string;
  /** The answer in order (see `AssistantMessage.parts`); `text`, `reasoning` and `toolCalls` agree with it. */
  readonly parts?: readonly AssistantPart[];
  /** Provider data on the answer as a whole; joins the history on the assistant message. */
  readonly providerData?: ProviderData;
  /** What the adapter could not honour (an option its provider lacks), one line each. */
  readonly warnings?: readonly string[];
}

/** What `stream()` yields: deltas as they arrive, then exactly one `finish` with the whole response. */
export type ModelStreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | { readonly type: 'tool-call-delta'; readonly index: number; readonly id?: string; readonly name?: string; readonly argumentsDelta: string }
  | { readonly type: 'finish'; readonly response: ModelResponse };

/**
 * The spec every model adapter implements. `complete` answers once; `stream`, when present, yields
 * deltas and ends with one `finish` event. Both reject on failure (after the adapter's own retries)
 * and when `request.signal` aborts.
 */
/** What a model's price is, in US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Input tokens read from the provider's cache. Default: `cachedInputPerMillion`, else `inputPerMillion`. */
  readonly cacheReadPerMillion?: number;
  /** Input tokens written to the provider's cache. Default: `inputPerMillion`. */
  readonly cacheWritePerMillion?: number;
  /** The older name of `cacheReadPerMillion`. */
  readonly cachedInputPerMillion?: number;
}

/** What a model says about itself, when it knows. Every field is optional. */
export interface ModelMetadata {
  /** Tokens of input plus output the model takes in one call. */
  readonly contextWindow?: number;
  /** The most output tokens one call may produce. */
  readonly maxOutputTokens?: number;
  /** Its price: the budget's `costUsd` uses it when `budget.prices` names no price for the model's id. */
  readonly prices?: ModelPrice;
}

export interface LanguageModel {
  /** For logs and transcripts, e.g. `openai:gpt-4.1-mini` or `mock:rules`. */
  readonly id: string;
  /** The provider tag of its `providerData` and of telemetry (`anthropic`, `openai`), when it has one. */
  readonly provider?: string;
  readonly metadata?: ModelMetadata;
  /** A composite model's members (`fallbackModel`), so their metadata is found by the id that answered. */
  readonly models?: readonly LanguageModel[];
  complete(request: ModelRequest): Promise<ModelResponse>;
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
