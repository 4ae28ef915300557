import pRetry from 'p-retry';
import { abortableSleep } from '@weir/core';
import { GoogleError } from './google-error.js';

/** Told before each wait between attempts. */
export interface RetryEvent {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: GoogleError;
}

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly signal: AbortSignal;
  readonly remainingMs: () => number;
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * Runs `attempt` until it succeeds, with p-retry: again after a retryable `GoogleError` (429, 500,
 * 503, 504, network, idle timeout, a cut stream), never after anything else. Each wait is the
 * server's (`RetryInfo.retryDelay`, `retry-after`) or exponential backoff with jitter (0.5 s, 1 s,
 * 2 s... up to 8 s); a wait above `maxRetryDelayMs` or past the deadline surfaces the error instead.
 */
export function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const retryable = (error: unknown): error is GoogleError => error instanceof GoogleError && error.retryable && !policy.signal.aborted;
  return pRetry(attempt, {
    retries: policy.maxRetries,
    factor: 1,
    minTimeout: 0,
    maxTimeout: 0,
    signal: policy.signal,
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
      if (retriesLeft <= 0 || !retryable(error)) return;
      const delayMs = error.retryAfterMs ?? backoffDelay(attemptNumber);
      if (delayMs > policy.maxRetryDelayMs || delayMs >= policy.remainingMs()) throw error;
      policy.onRetry?.({ attempt: attemptNumber, delayMs, error });
      await abortableSleep(delayMs, policy.signal);
    },
    shouldRetry: ({ error }) => retryable(error),
  });
}

/** 0.5 s doubled per attempt, at most 8 s, less up to a quarter of jitter. */
function backoffDelay(attempt: number): number {
  const base = Math.min(8_000, 500 * 2 ** (attempt - 1));
  return Math.round(base * (1 - Math.random() * 0.25));
}
