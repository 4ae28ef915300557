import pRetry from 'p-retry';
import { abortableSleep } from '../abortable-sleep.js';
import { backoffDelay } from './backoff-delay.js';

/** What a model adapter's error says about retrying it (`OpenAIError`, `AnthropicError`). */
export interface RetryableError extends Error {
  readonly retryable: boolean;
  /** The wait the server asked for, in ms. */
  readonly retryAfterMs?: number | undefined;
}

/** Told before each wait between attempts. */
export interface RetryEvent<E extends RetryableError = RetryableError> {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** How long the client waits before the next attempt. */
  readonly delayMs: number;
  readonly error: E;
}

export interface RetryPolicy<E extends RetryableError = RetryableError> {
  readonly maxRetries: number;
  /** A wait longer than this (a server asking for 10 minutes, say) surfaces the error instead. */
  readonly maxRetryDelayMs: number;
  /** Aborts every wait and stops retrying: the caller's signal fused with the deadline. */
  readonly signal: AbortSignal;
  /** Time left before the deadline: a wait that would pass it surfaces the error instead. */
  readonly remainingMs: () => number;
  /** True for the adapter's own errors (`error instanceof OpenAIError`): only those may be retried. */
  readonly isAdapterError: (error: unknown) => error is E;
  readonly onRetry?: ((event: RetryEvent<E>) => void) | undefined;
}

/**
 * Runs `attempt` until it succeeds, with p-retry: again after an adapter error marked `retryable`
 * (the adapter decides: 408, 429, 5xx, network, idle timeout, a stream cut before its finish),
 * never after anything else. Each wait is the server's hint (`retryAfterMs`) or else exponential
 * backoff with jitter; a wait above `maxRetryDelayMs` or past the deadline surfaces the error
 * rather than sleep. Every wait is abortable. Rejects with the last attempt's error (p-retry's own
 * abort handling may reject with the signal's reason).
 */
export function withModelRetry<T, E extends RetryableError>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy<E>): Promise<T> {
  const retryable = (error: unknown): error is E => policy.isAdapterError(error) && error.retryable && !policy.signal.aborted;
  return pRetry(attempt, {
    retries: policy.maxRetries,
    // p-retry's own backoff is off (no delay at all): the wait depends on each failure's headers,
    // so it is taken in onFailedAttempt, which p-retry awaits before the next attempt.
    factor: 1,
    minTimeout: 0,
    maxTimeout: 0,
    signal: policy.signal,
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
      if (retriesLeft <= 0 || !retryable(error)) return;
      const delayMs = error.retryAfterMs ?? backoffDelay(attemptNumber);
      // Throwing here ends the retries with this error: surface it rather than sleep past the cap.
      if (delayMs > policy.maxRetryDelayMs || delayMs >= policy.remainingMs()) throw error;
      policy.onRetry?.({ attempt: attemptNumber, delayMs, error });
      await abortableSleep(delayMs, policy.signal);
    },
    shouldRetry: ({ error }) => retryable(error),
  });
}
