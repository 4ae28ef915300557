import type { ModelStreamEvent } from '../agent/model.js';
import { withModelRetry, type RetryableError, type RetryPolicy } from './with-model-retry.js';

/**
 * The streaming side of `withModelRetry`, for HTTP model adapters: runs `attempt` again (under
 * `policy`) until one attempt yields its first event, then yields that event and the rest of that
 * attempt's stream. Retrying stops at the first event because from then on the
 * consumer has seen output that cannot be taken back: a later failure (an error event mid-stream,
 * a cut) is thrown to the consumer, and the turn fails. An attempt that ends before yielding
 * anything throws `ended(attemptNumber)`, which the adapter marks retryable or not.
 *
 * Every attempt's generator is closed: after a failed first read, at its end, and when the
 * consumer stops early (so its socket is released and its timers cleared).
 */
export async function* streamWithModelRetry<E extends RetryableError>(
  attempt: (attemptNumber: number) => AsyncGenerator<ModelStreamEvent, void>,
  policy: RetryPolicy<E>,
  ended: (attemptNumber: number) => E,
): AsyncGenerator<ModelStreamEvent, void> {
  let rest: AsyncGenerator<ModelStreamEvent, void> | undefined;
  try {
    const first = await withModelRetry(async (attemptNumber) => {
      const events = attempt(attemptNumber);
      try {
        const next = await events.next();
        if (next.done === true) throw ended(attemptNumber);
        rest = events;
        return next.value;
      } catch (error) {
        await events.return();
        throw error;
      }
    }, policy);
    yield first;
    if (first.type !== 'finish') yield* rest!;
  } finally {
    await rest?.return();
  }
}
