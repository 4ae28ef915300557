/**
 * Stable codes for everything that can go wrong talking to an OpenAI-compatible endpoint.
 * Tests and callers branch on the code, never on the message.
 *
 * - `INVALID_CONFIG`: a missing or malformed option or environment variable (thrown at creation).
 * - `AUTHENTICATION` (401), `PERMISSION_DENIED` (403), `NOT_FOUND` (404), `BAD_REQUEST` (other 4xx).
 * - `CONTEXT_LENGTH_EXCEEDED`: the request does not fit the model's context window; shorten and retry.
 * - `QUOTA_EXCEEDED`: billing or quota exhausted (`insufficient_quota`, 402); waiting will not help.
 * - `RATE_LIMITED` (429), `PROVIDER_UNAVAILABLE` (408, 409, 5xx, or an error the provider sent mid-stream).
 * - `NETWORK`: the connection failed or broke. `IDLE_TIMEOUT`: the server went silent too long.
 * - `TIMEOUT`: the call's overall deadline passed.
 * - `INCOMPLETE_STREAM`: the answer ended without a finish signal (a failed attempt, never a turn).
 * - `INVALID_RESPONSE`: a body that is not a Chat Completions answer (wrong content type, bad JSON,
 *   a protocol violation such as string fragments after object arguments).
 * - `UNEXPECTED_STATUS`: any other status (1xx, 3xx).
 */
export type OpenAIErrorCode =
  | 'INVALID_CONFIG'
  | 'AUTHENTICATION'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'BAD_REQUEST'
  | 'CONTEXT_LENGTH_EXCEEDED'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMITED'
  | 'PROVIDER_UNAVAILABLE'
  | 'NETWORK'
  | 'IDLE_TIMEOUT'
  | 'TIMEOUT'
  | 'INCOMPLETE_STREAM'
  | 'INVALID_RESPONSE'
  | 'UNEXPECTED_STATUS';

/** What an `OpenAIError` knows beyond its code and message. Every field is optional. */
export interface OpenAIErrorDetails {
  /** The HTTP status, or the code of an `{ error }` payload sent inside a 200 answer. */
  readonly status?: number;
  /** The server's `x-request-id`: quote it when asking the provider for help. */
  readonly requestId?: string;
  /** The provider's own error message, secrets redacted. */
  readonly providerMessage?: string;
  /** The provider's `error.type`, `error.code` and `error.param`, as sent. */
  readonly providerType?: string;
  readonly providerCode?: string;
  readonly param?: string;
  /** The start of a body that was not a JSON error (an HTML page from a proxy, say), at most 500 characters. */
  readonly bodyExcerpt?: string;
  /** `POST` target without query string, so no secret in a query parameter leaks into logs. */
  readonly url?: string;
  /** True when a later attempt may succeed. The client has already spent its own retries. */
  readonly retryable?: boolean;
  /** The wait the server asked for (`retry-after-ms`, `retry-after`, rate-limit reset headers), in ms. */
  readonly retryAfterMs?: number;
  /** Which attempt failed (1 for the first). On a surfaced error, the number of attempts made. */
  readonly attempt?: number;
  readonly cause?: unknown;
}

/**
 * The one error class of `@weir/llm-openai`: every rejection of `complete()` and every throw of
 * `stream()` is an `OpenAIError`, except a caller's abort, which rejects with the signal's reason.
 * Messages say what to do next and never contain the API key.
 */
export class OpenAIError extends Error {
  override readonly name = 'OpenAIError';
  readonly code: OpenAIErrorCode;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly providerMessage: string | undefined;
  readonly providerType: string | undefined;
  readonly providerCode: string | undefined;
  readonly param: string | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly url: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly attempt: number | undefined;

  constructor(code: OpenAIErrorCode, message: string, details: OpenAIErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.requestId = details.requestId;
    this.providerMessage = details.providerMessage;
    this.providerType = details.providerType;
    this.providerCode = details.providerCode;
    this.param = details.param;
    this.bodyExcerpt = details.bodyExcerpt;
    this.url = details.url;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.attempt = details.attempt;
  }
}

/** True for an `OpenAIError`, optionally with the given code. Never throws. */
export function isOpenAIError(error: unknown, code?: OpenAIErrorCode): error is OpenAIError {
  return error instanceof OpenAIError && (code === undefined || error.code === code);
}
