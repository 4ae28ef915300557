import { DEFAULT_MODEL_IDLE_TIMEOUT_MS, DEFAULT_MODEL_MAX_RETRIES, DEFAULT_MODEL_MAX_RETRY_DELAY_MS, DEFAULT_MODEL_TIMEOUT_MS, resolveTransport, type ResolvedTransport, type TransportOptions } from '@weir/core';
import { OpenAIError } from './openai-error.js';
import { requestTarget, type RequestTarget } from './request-target.js';
import type { SendReasoning } from './to-wire-messages.js';
import type { RetryEvent } from './with-model-retry.js';

/**
 * Options of `createOpenAIModel`. Only `baseURL`, `apiKey` and `model` are required.
 * The transport options (`headers`, `timeoutMs`, `idleTimeoutMs`, `maxRetries`, `maxRetryDelayMs`, `fetch`)
 * are core's `TransportOptions`, checked and defaulted alike for every adapter. Azure: `headers: { 'api-key': key }` with `apiKey: ''`.
 */
export interface OpenAIModelOptions extends TransportOptions {
  /** The API root, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. A URL ending in the endpoint (`/chat/completions`, `/responses`) is accepted as is. */
  readonly baseURL: string;
  /**
   * Which API to speak: `'chat'` (Chat Completions, the default, what every OpenAI-compatible server
   * has) or `'responses'` (OpenAI's Responses API: reasoning models keep their encrypted reasoning
   * between tool turns). `OPENAI_API=responses` in the environment for `openAIModelFromEnv()`.
   */
  readonly api?: OpenAIApi;
  /** Sent as `Authorization: Bearer <apiKey>`; `''` sends no Authorization header (local servers). */
  readonly apiKey: string;
  /** The model id the endpoint knows, e.g. `gpt-4.1-mini`, `deepseek-chat`. */
  readonly model: string;
  /** Ask for usage with `stream_options.include_usage`. Default true; turn off for servers that reject it. */
  readonly includeUsage?: boolean;
  /** When `reasoning` goes back as `reasoning_content`. Default `'when-present'`. */
  readonly sendReasoning?: SendReasoning;
  /**
   * Move reasoning sent inside `<think>...</think>` in the content (DeepSeek R1 and other reasoning
   * models on hosts without a reasoning parser) into `reasoning` and `reasoning-delta` events. Default false.
   */
  readonly thinkTags?: boolean;
  /**
   * Whether the model takes images. Default false (many OpenAI-compatible servers reject image
   * parts): images are replaced by a text note, "[image: 12 KB image/png, not shown: this model takes
   * no images]". With true, user messages send them as `image_url` parts, and images of tool results
   * follow the batch's last tool message as one user message that names each call.
   */
  readonly acceptsImages?: boolean;
  /** Fields added to every request body: `temperature`, `max_tokens`, `parallel_tool_calls`, `reasoning_effort`... */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** Told before each wait between attempts (for logs and progress). Must not throw. */
  readonly onRetry?: (event: RetryEvent) => void;
}

/** The wire an `OpenAIModel` speaks. */
export type OpenAIApi = 'chat' | 'responses';

/** The options, checked, with defaults filled in. */
export interface ResolvedOptions extends ResolvedTransport {
  readonly api: OpenAIApi;
  readonly target: RequestTarget;
  readonly model: string;
  readonly includeUsage: boolean;
  readonly sendReasoning: SendReasoning;
  readonly thinkTags: boolean;
  readonly acceptsImages: boolean;
  readonly extraBody: Readonly<Record<string, unknown>> | undefined;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
}

/** Default overall deadline of one call, retries included: 10 minutes, as the official SDKs allow. */
export const DEFAULT_TIMEOUT_MS = DEFAULT_MODEL_TIMEOUT_MS;
/** Default longest silence: long enough for a slow first token, far shorter than the deadline. */
export const DEFAULT_IDLE_TIMEOUT_MS = DEFAULT_MODEL_IDLE_TIMEOUT_MS;
/** Default retries after a retryable failure, as the official SDKs do. */
export const DEFAULT_MAX_RETRIES = DEFAULT_MODEL_MAX_RETRIES;
/** Default longest wait between attempts; a server asking for more gets its error surfaced. */
export const DEFAULT_MAX_RETRY_DELAY_MS = DEFAULT_MODEL_MAX_RETRY_DELAY_MS;

const SEND_REASONING: ReadonlySet<string> = new Set<SendReasoning>(['when-present', 'with-tool-calls', 'never']);

/** Checks the options and fills in defaults. Throws `OpenAIError('INVALID_CONFIG')` naming the bad option. */
export function resolveOptions(options: OpenAIModelOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw invalid('createOpenAIModel() needs an options object with baseURL, apiKey and model.');
  if (typeof options.baseURL !== 'string' || options.baseURL.trim() === '') throw invalid('baseURL is required, e.g. https://api.openai.com/v1.');
  if (typeof options.apiKey !== 'string') throw invalid('apiKey must be a string (use "" for a server without keys).');
  if (typeof options.model !== 'string' || options.model.trim() === '') throw invalid('model is required, e.g. gpt-4.1-mini.');
  const sendReasoning = options.sendReasoning ?? 'when-present';
  if (!SEND_REASONING.has(sendReasoning)) throw invalid(`sendReasoning must be 'when-present', 'with-tool-calls' or 'never', got ${JSON.stringify(sendReasoning)}.`);
  if (options.thinkTags !== undefined && typeof options.thinkTags !== 'boolean') throw invalid(`thinkTags must be true or false, got ${JSON.stringify(options.thinkTags)}.`);
  if (options.acceptsImages !== undefined && typeof options.acceptsImages !== 'boolean') throw invalid(`acceptsImages must be true or false, got ${JSON.stringify(options.acceptsImages)}.`);
  const api = options.api ?? 'chat';
  if (api !== 'chat' && api !== 'responses') throw invalid(`api must be 'chat' or 'responses', got ${JSON.stringify(api)}.`);
  const defaultHeaders: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
  if (options.apiKey !== '') defaultHeaders.authorization = `Bearer ${options.apiKey}`;
  const transport = resolveTransport(options, options.apiKey, defaultHeaders, invalid);

  return {
    ...transport,
    api,
    target: requestTarget(options.baseURL, api === 'responses' ? '/responses' : '/chat/completions'),
    model: options.model.trim(),
    includeUsage: options.includeUsage ?? true,
    sendReasoning,
    thinkTags: options.thinkTags ?? false,
    acceptsImages: options.acceptsImages ?? false,
    extraBody: options.extraBody,
    onRetry: options.onRetry,
  };
}

function invalid(message: string): OpenAIError {
  return new OpenAIError('INVALID_CONFIG', message);
}
