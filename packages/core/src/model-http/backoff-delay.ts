/** First retry waits about this long; each later one twice as long. */
export const INITIAL_BACKOFF_MS = 500;
/** No computed backoff waits longer than this. */
export const MAX_BACKOFF_MS = 8_000;

/**
 * Exponential backoff for retry `retry` (1 for the first): 0.5 s, 1 s, 2 s ... capped at 8 s, minus up
 * to 25% jitter so clients that failed together do not retry together. `random` returns [0, 1).
 * Always positive. Never throws.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, retry - 1), MAX_BACKOFF_MS);
  return Math.max(1, Math.round(base * (1 - 0.25 * random())));
}
