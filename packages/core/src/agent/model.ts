import type { ContentPart } from '../tools/content-part.js';
import type { ToolSchema } from '../tools/tool-registry.js';

/** Why the model stopped. Tool calls from a `length`, `content_filter` or `error` turn are never executed. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error';

/** Token counts, when the provider reports them. Absent usage is `undefined`, never zeros. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when reported. */
  readonly cachedInputTokens?: number;
}

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

export interface ModelRequest {
  /** The whole history, oldest first. Read it; never change it (the loop does not copy it per step). */
  readonly messages: readonly Message[];
  /** The registry's model view. */
  readonly tools: readonly ToolSchema[];
  readonly signal?: AbortSignal;
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
export interface LanguageModel {
  /** For logs and transcripts, e.g. `openai:gpt-4.1-mini` or `mock:rules`. */
  readonly id: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
