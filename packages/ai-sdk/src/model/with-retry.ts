import { abortableSleep } from '@weir/core';
import { isApiCallError } from './ai-sdk-model-error.js';

/** Told before each wait between attempts. */
export interface RetryEvent {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: Error;
}

export interface RetryOptions {
  readonly maxRetries: number;
  /** A longer wait (a server asking for minutes) surfaces the error instead. */
  readonly maxRetryDelayMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
}

const INITIAL_BACKOFF_MS = 500;
const NEVER = new AbortController().signal;
const MAX_BACKOFF_MS = 8_000;

/**
 * Runs `attempt` again after an `APICallError` the SDK marks retryable (429, 5xx, 408, 409 and
 * network failures, as the provider decides), up to `maxRetries` times; anything else, and any
 * error once the signal aborted, rejects at once. Each wait is the server's `retry-after-ms` or
 * `retry-after`, else 0.5 s doubling to 8 s with up to 25% jitter; every wait is abortable.
 * This is the retry the AI SDK's `generateText` would do, which a bare `doGenerate` does not.
 */
export async function withRetry<T>(attempt: () => PromiseLike<T>, options: RetryOptions): Promise<T> {
  for (let failed = 1; ; failed += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (failed > options.maxRetries || options.signal?.aborted || !isApiCallError(error) || !error.isRetryable) throw error;
      const delayMs = retryAfterMs(error.responseHeaders) ?? backoff(failed);
      if (delayMs > options.maxRetryDelayMs) throw error;
      options.onRetry?.({ attempt: failed, delayMs, error });
      await abortableSleep(delayMs, options.signal ?? NEVER);
    }
  }
}

function backoff(retry: number): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** (retry - 1), MAX_BACKOFF_MS);
  return Math.max(1, Math.round(base * (1 - 0.25 * Math.random())));
}

/** The server's requested wait: `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
