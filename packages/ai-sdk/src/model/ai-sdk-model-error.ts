// The AI SDK marks its errors with registered symbols, so an error of any copy of
// @ai-sdk/provider is recognised without importing it.
const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');

/** What weir reads of an AI SDK `APICallError`. */
interface ApiCallErrorLike extends Error {
  readonly statusCode?: number;
  readonly isRetryable: boolean;
  readonly responseHeaders?: Record<string, string>;
}

export function isApiCallError(error: unknown): error is ApiCallErrorLike {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[API_CALL_ERROR] === true;
}

/**
 * A failed call of an AI SDK model, after weir's retries: the provider's own message, prefixed by
 * the provider's name, and what a caller decides on. The request body and URL of the SDK's error are
 * not copied (they may hold what the caller does not want in a log); `cause` is the SDK's error.
 */
export class AiSdkModelError extends Error {
  override readonly name = 'AiSdkModelError';
  /** The HTTP status, when the provider answered. */
  readonly status: number | undefined;
  /** The SDK said the call may succeed if repeated (it was, up to `maxRetries` times). */
  readonly retryable: boolean;

  constructor(provider: string, error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    super(`${provider}: ${message}`, { cause: error });
    this.status = isApiCallError(error) ? error.statusCode : undefined;
    this.retryable = isApiCallError(error) && error.isRetryable;
  }
}
