import pRetry from 'p-retry';
import { abortableSleep } from '@weir/core';
import { backoffDelay } from './backoff-delay.js';
import { OpenAIError } from './openai-error.js';

/** Told before each wait between attempts. */
export interface RetryEvent {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** How long the client waits before the next attempt. */
  readonly delayMs: number;
  readonly error: OpenAIError;
}

export interface RetryPolicy {
  readonly maxRetries: number;
  /** A wait longer than this (a server asking for 10 minutes, say) surfaces the error instead. */
  readonly maxRetryDelayMs: number;
  /** Aborts every wait and stops retrying: the caller's signal fused with the deadline. */
  readonly signal: AbortSignal;
  /** Time left before the deadline: a wait that would pass it surfaces the error instead. */
  readonly remainingMs: () => number;
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * Runs `attempt` until it succeeds, with p-retry: again after a retryable `OpenAIError` (408, 409,
 * 429, 5xx, network, idle timeout, a stream cut before its finish), never after anything else.
 * Each wait is the server's hint (`retry-after-ms`, `retry-after`, rate-limit reset) or else
 * exponential backoff with jitter; a wait above `maxRetryDelayMs` or past the deadline surfaces
 * the error rather than sleep. Every wait is abortable. Rejects with the last attempt's error
 * (p-retry's own abort handling may reject with the signal's reason).
 */
export function withModelRetry<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const retryable = (error: unknown): error is OpenAIError => error instanceof OpenAIError && error.retryable && !policy.signal.aborted;
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
