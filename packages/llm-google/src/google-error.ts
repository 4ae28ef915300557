import { ModelApiError, type ModelApiErrorDetails } from '@weir/core';
/**
 * Stable codes for everything that can go wrong talking to the Gemini API. Branch on the code,
 * never on the message.
 *
 * - `INVALID_CONFIG`: a missing or malformed option or environment variable (thrown at creation).
 * - `AUTHENTICATION` (401, or 400 `API_KEY_INVALID`), `PERMISSION_DENIED` (403), `NOT_FOUND` (404),
 *   `BAD_REQUEST` (400 `INVALID_ARGUMENT`, `FAILED_PRECONDITION`, other 4xx).
 * - `RATE_LIMITED` (429 `RESOURCE_EXHAUSTED`), `PROVIDER_UNAVAILABLE` (500, 503, 504).
 * - `PROMPT_BLOCKED`: the prompt was blocked before any candidate (`promptFeedback.blockReason`).
 * - `NETWORK`, `IDLE_TIMEOUT`, `TIMEOUT`, `INCOMPLETE_STREAM`, `INVALID_RESPONSE`, `UNEXPECTED_STATUS`:
 *   as in `@weir/llm-openai`.
 */
export type GoogleErrorCode =
  | 'INVALID_CONFIG'
  | 'AUTHENTICATION'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'BAD_REQUEST'
  | 'RATE_LIMITED'
  | 'PROVIDER_UNAVAILABLE'
  | 'PROMPT_BLOCKED'
  | 'NETWORK'
  | 'IDLE_TIMEOUT'
  | 'TIMEOUT'
  | 'INCOMPLETE_STREAM'
  | 'INVALID_RESPONSE'
  | 'UNEXPECTED_STATUS';

/** What a `GoogleError` knows beyond its code and message. Every field is optional. */
export interface GoogleErrorDetails extends ModelApiErrorDetails {
  /** The API's own status word: `INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`, `UNAVAILABLE`... */
  readonly providerStatus?: string;
  /** The first `ErrorInfo.reason` (`API_KEY_INVALID`...), or a prompt's `blockReason`. */
  readonly reason?: string;
}

/**
 * The one error class of `@weir/llm-google`: every rejection of `complete()` and every throw of
 * `stream()` is a `GoogleError`, except a caller's abort, which rejects with the signal's reason.
 * Messages never contain the API key.
 */
export class GoogleError extends ModelApiError<GoogleErrorCode> {
  override readonly name = 'GoogleError';
  readonly providerStatus: string | undefined;
  readonly reason: string | undefined;

  constructor(code: GoogleErrorCode, message: string, details: GoogleErrorDetails = {}) {
    super(code, message, details);
    this.providerStatus = details.providerStatus;
    this.reason = details.reason;
  }


  /** The same error, numbered with the attempt that failed (when it had no number). */
  withAttempt(attempt: number): GoogleError {
    if (this.attempt !== undefined) return this;
    const copy = new GoogleError(this.code, this.message, { ...this, cause: this.cause, attempt });
    copy.stack = this.stack;
    return copy;
  }
}

/** True for a `GoogleError`, optionally with the given code. Never throws. */
export function isGoogleError(error: unknown, code?: GoogleErrorCode): error is GoogleError {
  return error instanceof GoogleError && (code === undefined || error.code === code);
}
