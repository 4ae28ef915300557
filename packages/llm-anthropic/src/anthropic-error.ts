import { ModelApiError, type ModelApiErrorDetails } from '@weir/core';
/**
 * Stable codes for everything that can go wrong talking to the Messages API, the same words as
 * `@weir/llm-openai`'s (so `fallbackModel` and `isRetryableModelError` read both alike). Tests and
 * callers branch on the code, never on the message.
 *
 * - `INVALID_CONFIG`: a missing or malformed option or environment variable (thrown at creation).
 * - `AUTHENTICATION` (401 `authentication_error`), `PERMISSION_DENIED` (403), `NOT_FOUND` (404),
 *   `BAD_REQUEST` (400 `invalid_request_error`, 413 and other 4xx).
 * - `CONTEXT_LENGTH_EXCEEDED`: "prompt is too long"; shorten and retry.
 * - `QUOTA_EXCEEDED`: billing exhausted (402, or a credit-balance message); waiting will not help.
 * - `RATE_LIMITED` (429 `rate_limit_error`), `PROVIDER_UNAVAILABLE` (529 `overloaded_error`, 500
 *   `api_error`, other 5xx, 408, or an `event: error` in the stream).
 * - `NETWORK`, `IDLE_TIMEOUT`, `TIMEOUT`, `INCOMPLETE_STREAM` (no `message_stop`), `INVALID_RESPONSE`.
 */
export type AnthropicErrorCode =
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
  | 'INVALID_RESPONSE';

/** What an `AnthropicError` knows beyond its code and message: the fields every model adapter's error has. */
export type AnthropicErrorDetails = ModelApiErrorDetails;

/**
 * The one error class of `@weir/llm-anthropic`: every rejection of `complete()` and every throw of
 * `stream()` is an `AnthropicError`, except a caller's abort, which rejects with the signal's
 * reason. Messages say what to do next and never contain the API key.
 */
export class AnthropicError extends ModelApiError<AnthropicErrorCode> {
  override readonly name = 'AnthropicError';

  constructor(code: AnthropicErrorCode, message: string, details: AnthropicErrorDetails = {}) {
    super(code, message, details);
  }

  /** The same error numbered with the attempt that met it, when it had no number. */
  numbered(attempt: number): AnthropicError {
    if (this.attempt !== undefined) return this;
    const copy = new AnthropicError(this.code, this.message, { ...this, cause: this.cause, attempt });
    copy.stack = this.stack;
    return copy;
  }
}

/** True for an `AnthropicError`, optionally with the given code. Never throws. */
export function isAnthropicError(error: unknown, code?: AnthropicErrorCode): error is AnthropicError {
  return error instanceof AnthropicError && (code === undefined || error.code === code);
}
