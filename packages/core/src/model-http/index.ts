// What HTTP model adapters are made of (@weir/llm-openai, @weir/llm-anthropic, @weir/llm-google): one copy of each.
export { backoffDelay, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS } from './backoff-delay.js';
export { CallDeadline } from './call-deadline.js';
export { IdleTimer } from './idle-timer.js';
export { parseDuration } from './parse-duration.js';
export { readBodyText } from './read-body-text.js';
export { redactSecrets } from './redact-secrets.js';
export { retryHint } from './retry-hint.js';
export type { HeaderSource } from './retry-hint.js';
export { withModelRetry } from './with-model-retry.js';
export type { RetryableError, RetryEvent, RetryPolicy } from './with-model-retry.js';
export { streamWithModelRetry } from './stream-with-model-retry.js';
export { DEFAULT_MODEL_IDLE_TIMEOUT_MS, DEFAULT_MODEL_MAX_RETRIES, DEFAULT_MODEL_MAX_RETRY_DELAY_MS, DEFAULT_MODEL_TIMEOUT_MS, resolveTransport } from './transport-options.js';
export type { ResolvedTransport, TransportOptions } from './transport-options.js';
export { ModelApiError } from './model-api-error.js';
export type { ModelApiErrorDetails } from './model-api-error.js';
