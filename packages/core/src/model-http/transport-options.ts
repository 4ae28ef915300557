/**
 * The transport options every HTTP model adapter takes (deadlines, retries, `fetch`, extra headers),
 * checked one way for all of them, so `timeoutMs: 0` or `maxRetries: 1.5` reads the same error from
 * `@weir/llm-openai`, `@weir/llm-anthropic` and `@weir/llm-google`.
 */
export interface TransportOptions {
  /** Extra request headers; they win over the adapter's defaults. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Overall deadline of one call, retries and waits included. Default 600 000 ms; `Infinity` for none. */
  readonly timeoutMs?: number;
  /** Longest silence (no byte at all; keep-alives count as bytes) before an attempt is abandoned. Default 120 000 ms. */
  readonly idleTimeoutMs?: number;
  /** Retries after a retryable failure. Default 2. */
  readonly maxRetries?: number;
  /** Longest wait between attempts; a server asking for more gets its error surfaced instead. Default 60 000 ms. */
  readonly maxRetryDelayMs?: number;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof globalThis.fetch;
}

/** The transport options, checked, with defaults filled in. */
export interface ResolvedTransport {
  /** The adapter's default headers with the caller's on top. */
  readonly headers: Headers;
  /** What must never appear in an error or a log: the API key and the values of credential-looking headers. */
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly fetch: typeof globalThis.fetch;
}

/** Default overall deadline of one call, retries included: 10 minutes, as the official SDKs allow. */
export const DEFAULT_MODEL_TIMEOUT_MS = 600_000;
/** Default longest silence: long enough for a slow first token, far shorter than the deadline. */
export const DEFAULT_MODEL_IDLE_TIMEOUT_MS = 120_000;
/** Default retries after a retryable failure, as the official SDKs do. */
export const DEFAULT_MODEL_MAX_RETRIES = 2;
/** Default longest wait between attempts. */
export const DEFAULT_MODEL_MAX_RETRY_DELAY_MS = 60_000;

/** A header whose value is a credential: redacted from errors like the API key. */
const CREDENTIAL_HEADER = /authorization|api-key|token|secret/i;

/**
 * Checks the transport options and fills in defaults. `invalid` makes the adapter's own
 * configuration error from a message naming the bad option; `defaultHeaders` are the adapter's
 * (content type, its key header), and `apiKey` is counted among the secrets.
 */
export function resolveTransport(options: TransportOptions, apiKey: string, defaultHeaders: Readonly<Record<string, string>>, invalid: (message: string) => Error): ResolvedTransport {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw invalid('fetch must be a function.');
  const headers = new Headers(defaultHeaders);
  const secrets = [apiKey];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value !== 'string') throw invalid(`headers.${name} must be a string, got ${typeof value}.`);
    headers.set(name, value);
    if (CREDENTIAL_HEADER.test(name)) secrets.push(value, value.replace(/^bearer\s+/i, ''));
  }
  const duration = (value: number | undefined, name: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) throw invalid(`${name} must be a positive number of milliseconds (or Infinity), got ${String(value)}.`);
    return value;
  };
  const count = (value: number | undefined, name: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 0) throw invalid(`${name} must be a whole number >= 0, got ${String(value)}.`);
    return value;
  };
  return {
    headers,
    secrets,
    timeoutMs: duration(options.timeoutMs, 'timeoutMs', DEFAULT_MODEL_TIMEOUT_MS),
    idleTimeoutMs: duration(options.idleTimeoutMs, 'idleTimeoutMs', DEFAULT_MODEL_IDLE_TIMEOUT_MS),
    maxRetries: count(options.maxRetries, 'maxRetries', DEFAULT_MODEL_MAX_RETRIES),
    maxRetryDelayMs: duration(options.maxRetryDelayMs, 'maxRetryDelayMs', DEFAULT_MODEL_MAX_RETRY_DELAY_MS),
    fetch: fetchImpl,
  };
}
