import { redactUrl, type ModelMetadata, type RetryEvent } from '@weir/core';
import { AnthropicError } from './anthropic-error.js';
import { knownMetadata } from './known-models.js';

/** Options of `createAnthropicModel`. Only `model` and `apiKey` are required. */
export interface AnthropicModelOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** Sent as `x-api-key`. */
  readonly apiKey: string;
  /** The API root. Default `https://api.anthropic.com` (`/v1/messages` is added; a pasted `/v1` or `/v1/messages` is accepted). */
  readonly baseURL?: string;
  /** Extra request headers; they win over the defaults (`anthropic-beta`, a proxy's auth). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Overall deadline of one call, retries and waits included. Default 600 000 ms; `Infinity` for none. */
  readonly timeoutMs?: number;
  /** Longest silence (no byte at all; `ping` events count) before an attempt is abandoned. Default 120 000 ms. */
  readonly idleTimeoutMs?: number;
  /** Retries after a retryable failure (429, 529, 5xx, network, idle, a stream cut early). Default 2. */
  readonly maxRetries?: number;
  /** Longest wait between attempts; a server asking for more gets its error surfaced instead. Default 60 000 ms. */
  readonly maxRetryDelayMs?: number;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof globalThis.fetch;
  /** Told before each wait between attempts (for logs and progress). Must not throw. */
  readonly onRetry?: (event: RetryEvent<AnthropicError>) => void;
  /** `max_tokens` when the call sets no `maxOutputTokens`. Default 8192. */
  readonly maxOutputTokens?: number;
  /** What the model states about itself (context window, prices). Default: the built-in table for known Claude models. */
  readonly metadata?: ModelMetadata;
}

/** The options, checked, with defaults filled in. */
export interface ResolvedOptions {
  readonly model: string;
  readonly url: string;
  /** `url` without query string or credentials, for messages. */
  readonly display: string;
  readonly headers: Headers;
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly fetch: typeof globalThis.fetch;
  readonly onRetry: ((event: RetryEvent<AnthropicError>) => void) | undefined;
  readonly maxOutputTokens: number;
  readonly metadata: ModelMetadata | undefined;
}

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Default overall deadline of one call, retries included: 10 minutes, as the official SDK allows. */
export const DEFAULT_TIMEOUT_MS = 600_000;
/** Default longest silence: Anthropic pings every few seconds, so two minutes is a dead connection. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** Default retries after a retryable failure, as the official SDK does. */
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
/** `max_tokens` is required by the API: what a call that sets none asks for. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
/** The API version every request names. */
export const ANTHROPIC_VERSION = '2023-06-01';

const CREDENTIAL_HEADER = /authorization|api-key|token|secret/i;

/** Checks the options and fills in defaults. Throws `AnthropicError('INVALID_CONFIG')` naming the bad option. */
export function resolveOptions(options: AnthropicModelOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw invalid('createAnthropicModel() needs an options object with model and apiKey.');
  if (typeof options.model !== 'string' || options.model.trim() === '') throw invalid('model is required, e.g. claude-sonnet-4-5.');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw invalid('apiKey is required (ANTHROPIC_API_KEY).');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw invalid('fetch must be a function.');
  const { url, display } = messagesURL(options.baseURL ?? DEFAULT_BASE_URL);

  const headers = new Headers({ 'content-type': 'application/json', accept: 'text/event-stream, application/json', 'anthropic-version': ANTHROPIC_VERSION, 'x-api-key': options.apiKey });
  const secrets = [options.apiKey];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    headers.set(name, value);
    if (CREDENTIAL_HEADER.test(name)) secrets.push(value, value.replace(/^bearer\s+/i, ''));
  }
  const model = options.model.trim();
  return {
    model,
    url,
    display,
    headers,
    secrets,
    timeoutMs: duration(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS),
    idleTimeoutMs: duration(options.idleTimeoutMs, 'idleTimeoutMs', DEFAULT_IDLE_TIMEOUT_MS),
    maxRetries: count(options.maxRetries, 'maxRetries', DEFAULT_MAX_RETRIES),
    maxRetryDelayMs: duration(options.maxRetryDelayMs, 'maxRetryDelayMs', DEFAULT_MAX_RETRY_DELAY_MS),
    fetch: fetchImpl,
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

function duration(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) throw invalid(`${name} must be a positive number of milliseconds (or Infinity), got ${String(value)}.`);
  return value;
}

function count(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw invalid(`${name} must be an integer >= 0, got ${String(value)}.`);
  return value;
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw invalid(`${name} must be a positive integer, got ${String(value)}.`);
  return value;
}

function invalid(message: string): AnthropicError {
  return new AnthropicError('INVALID_CONFIG', `createAnthropicModel: ${message}`);
}
