import { DEFAULT_MODEL_IDLE_TIMEOUT_MS, DEFAULT_MODEL_MAX_RETRIES, DEFAULT_MODEL_MAX_RETRY_DELAY_MS, DEFAULT_MODEL_TIMEOUT_MS, redactUrl, resolveTransport, type ModelMetadata, type ResolvedTransport, type RetryEvent, type TransportOptions } from '@weir/core';
import { AnthropicError } from './anthropic-error.js';
import { knownMetadata } from './known-models.js';

/**
 * Options of `createAnthropicModel`. Only `model` and `apiKey` are required.
 * The transport options (`headers`, `timeoutMs`, `idleTimeoutMs`, `maxRetries`, `maxRetryDelayMs`, `fetch`)
 * are core's `TransportOptions`, checked and defaulted alike for every adapter. Retried: 429, 529, 5xx, a network failure, an idle stream, a stream cut early. The idle timer counts `ping` events as bytes.
 */
export interface AnthropicModelOptions extends TransportOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** Sent as `x-api-key`. */
  readonly apiKey: string;
  /** The API root. Default `https://api.anthropic.com` (`/v1/messages` is added; a pasted `/v1` or `/v1/messages` is accepted). */
  readonly baseURL?: string;
  /** Told before each wait between attempts (for logs and progress). Must not throw. */
  readonly onRetry?: (event: RetryEvent<AnthropicError>) => void;
  /** `max_tokens` when the call sets no `maxOutputTokens`. Default 8192. */
  readonly maxOutputTokens?: number;
  /** What the model states about itself (context window, prices). Default: the built-in table for known Claude models. */
  readonly metadata?: ModelMetadata;
}

/** The options, checked, with defaults filled in. */
export interface ResolvedOptions extends ResolvedTransport {
  readonly model: string;
  readonly url: string;
  /** `url` without query string or credentials, for messages. */
  readonly display: string;
  readonly onRetry: ((event: RetryEvent<AnthropicError>) => void) | undefined;
  readonly maxOutputTokens: number;
  readonly metadata: ModelMetadata | undefined;
}

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Default overall deadline of one call, retries included: 10 minutes, as the official SDK allows. */
export const DEFAULT_TIMEOUT_MS = DEFAULT_MODEL_TIMEOUT_MS;
/** Default longest silence: Anthropic pings every few seconds, so two minutes is a dead connection. */
export const DEFAULT_IDLE_TIMEOUT_MS = DEFAULT_MODEL_IDLE_TIMEOUT_MS;
/** Default retries after a retryable failure, as the official SDK does. */
export const DEFAULT_MAX_RETRIES = DEFAULT_MODEL_MAX_RETRIES;
export const DEFAULT_MAX_RETRY_DELAY_MS = DEFAULT_MODEL_MAX_RETRY_DELAY_MS;
/** `max_tokens` is required by the API: what a call that sets none asks for. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
/** The API version every request names. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Checks the options and fills in defaults. Throws `AnthropicError('INVALID_CONFIG')` naming the bad option. */
export function resolveOptions(options: AnthropicModelOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw invalid('createAnthropicModel() needs an options object with model and apiKey.');
  if (typeof options.model !== 'string' || options.model.trim() === '') throw invalid('model is required, e.g. claude-sonnet-4-5.');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw invalid('apiKey is required (ANTHROPIC_API_KEY).');
  const transport = resolveTransport(options, options.apiKey, { 'content-type': 'application/json', accept: 'text/event-stream, application/json', 'anthropic-version': ANTHROPIC_VERSION, 'x-api-key': options.apiKey }, invalid);
  const { url, display } = messagesURL(options.baseURL ?? DEFAULT_BASE_URL);
  const model = options.model.trim();
  return {
    ...transport,
    model,
    url,
    display,
    onRetry: options.onRetry,
    maxOutputTokens: options.maxOutputTokens === undefined ? DEFAULT_MAX_OUTPUT_TOKENS : positive(options.maxOutputTokens, 'maxOutputTokens'),
    metadata: options.metadata ?? knownMetadata(model),
  };
}

/** `<base>/v1/messages`, a pasted `/v1` or `/v1/messages` taken off first. */
function messagesURL(baseURL: string): { url: string; display: string } {
  let parsed: URL;
  try {
    parsed = new URL(baseURL.trim());
  } catch {
    throw invalid(`the base URL "${redactUrl(baseURL)}" is not a URL. Set ANTHROPIC_BASE_URL (or baseURL) to e.g. ${DEFAULT_BASE_URL}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(`the base URL must be http or https, got "${parsed.protocol}".`);
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/v1(?:\/messages)?$/, '');
  parsed.pathname = `${path}/v1/messages`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, display: `${parsed.origin}${parsed.pathname}` };
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw invalid(`${name} must be a positive integer, got ${String(value)}.`);
  return value;
}

function invalid(message: string): AnthropicError {
  return new AnthropicError('INVALID_CONFIG', `createAnthropicModel: ${message}`);
}
