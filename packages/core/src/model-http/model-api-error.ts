/** What a model adapter's error knows beyond its code and message, whatever the provider. Every field is optional. */
export interface ModelApiErrorDetails {
  /** The HTTP status (200 for an error sent inside a streamed answer). */
  readonly status?: number;
  /** The server's request id: quote it when asking the provider for help. */
  readonly requestId?: string;
  /** The provider's own error message, secrets redacted. */
  readonly providerMessage?: string;
  /** The provider's error type or status word (`overloaded_error`, `RESOURCE_EXHAUSTED`...), as sent. */
  readonly providerType?: string;
  /** The start of a body that was not a JSON error (an HTML page from a proxy, say), at most 500 characters. */
  readonly bodyExcerpt?: string;
  /** The endpoint without query string, so no secret in a query parameter leaks into logs. */
  readonly url?: string;
  /** True when a later attempt may succeed. The client has already spent its own retries. */
  readonly retryable?: boolean;
  /** The wait the server asked for, in ms. */
  readonly retryAfterMs?: number;
  /** Which attempt failed (1 for the first). On a surfaced error, the number of attempts made. */
  readonly attempt?: number;
  readonly cause?: unknown;
}

/**
 * The fields every HTTP model adapter's error class carries (`OpenAIError`, `AnthropicError`,
 * `GoogleError` extend it, each with its own name, codes and extra fields), so retries, fallbacks
 * and logs read them one way. Messages never contain the API key.
 */
export class ModelApiError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly providerMessage: string | undefined;
  readonly providerType: string | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly url: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly attempt: number | undefined;

  constructor(code: Code, message: string, details: ModelApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.requestId = details.requestId;
    this.providerMessage = details.providerMessage;
    this.providerType = details.providerType;
    this.bodyExcerpt = details.bodyExcerpt;
    this.url = details.url;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.attempt = details.attempt;
  }
}
