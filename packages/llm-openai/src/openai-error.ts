import { ModelApiError, type ModelApiErrorDetails } from '@weir/core';
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

/** What an `OpenAIError` knows beyond its code and message: the fields every adapter's error has, and these. */
export interface OpenAIErrorDetails extends ModelApiErrorDetails {
  /** The provider's `error.code`, as sent (`error.type` is `providerType`). */
  readonly providerCode?: string;
  /** The provider's `error.param`, as sent. */
  readonly param?: string;
}

/**
 * The one error class of `@weir/llm-openai`: every rejection of `complete()` and every throw of
 * `stream()` is an `OpenAIError`, except a caller's abort, which rejects with the signal's reason.
 * Messages say what to do next and never contain the API key.
 */
export class OpenAIError extends ModelApiError<OpenAIErrorCode> {
  override readonly name = 'OpenAIError';
  readonly providerCode: string | undefined;
  readonly param: string | undefined;

  constructor(code: OpenAIErrorCode, message: string, details: OpenAIErrorDetails = {}) {
    super(code, message, details);
    this.providerCode = details.providerCode;
    this.param = details.param;
  }
}

/** True for an `OpenAIError`, optionally with the given code. Never throws. */
export function isOpenAIError(error: unknown, code?: OpenAIErrorCode): error is OpenAIError {
  return error instanceof OpenAIError && (code === undefined || error.code === code);
}
