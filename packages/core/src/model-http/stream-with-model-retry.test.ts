import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../agent/model.js';
import { streamWithModelRetry } from './stream-with-model-retry.js';
import type { RetryPolicy } from './with-model-retry.js';

class TestError extends Error {
  constructor(message: string, readonly retryable: boolean, readonly retryAfterMs?: number) {
    super(message);
  }
}

const finish: ModelStreamEvent = { type: 'finish', response: { text: 'ab', toolCalls: [], finishReason: 'stop' } };
const text = (t: string): ModelStreamEvent => ({ type: 'text-delta', text: t });

function policy(retries: RetryPolicy<TestError>['onRetry'] = undefined): RetryPolicy<TestError> {
  return {
    maxRetries: 3,
    maxRetryDelayMs: 1_000,
    signal: new AbortController().signal,
    remainingMs: () => 60_000,
    isAdapterError: (error): error is TestError => error instanceof TestError,
    onRetry: retries,
  };
}

/** One attempt per script entry; each records whether its generator was closed. */
function scripted(scripts: Array<Array<ModelStreamEvent | TestError>>) {
  const closed: boolean[] = [];
  const attempt = (attemptNumber: number) =>
    (async function* () {
      const index = attemptNumber - 1;
      closed[index] = false;
      try {
        for (const step of scripts[index] ?? []) {
          if (step instanceof Error) throw step;
          yield step;
        }
      } finally {
        closed[index] = true;
      }
    })();
  return { attempt, closed };
}

const ended = (attempt: number) => new TestError(`attempt ${attempt} ended empty`, true, 0);

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('streamWithModelRetry', () => {
  it('retries attempts that fail before their first event, then hands on the one that yields', async () => {
    const waits: number[] = [];
    const { attempt, closed } = scripted([[new TestError('busy', true, 1)], [], [text('a'), text('b'), finish]]);
    const events = await collect(streamWithModelRetry(attempt, policy((event) => waits.push(event.attempt)), ended));
    expect(events).toEqual([text('a'), text('b'), finish]);
    expect(waits).toEqual([1, 2]);
    expect(closed).toEqual([true, true, true]);
  });

  it('throws a failure after the first event to the consumer, never retrying it', async () => {
    const { attempt, closed } = scripted([[text('a'), new TestError('cut', true, 0)], [text('again'), finish]]);
    const seen: ModelStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of streamWithModelRetry(attempt, policy(), ended)) seen.push(event);
      })(),
    ).rejects.toThrow('cut');
    expect(seen).toEqual([text('a')]);
    expect(closed).toEqual([true]);
  });

  it('never retries an error the adapter does not mark retryable', async () => {
    const { attempt, closed } = scripted([[new TestError('bad request', false)], [finish]]);
    await expect(collect(streamWithModelRetry(attempt, policy(), ended))).rejects.toThrow('bad request');
    expect(closed).toEqual([true]);
  });

  it('closes the attempt when the consumer stops early', async () => {
    const { attempt, closed } = scripted([[text('a'), text('b'), finish]]);
    for await (const event of streamWithModelRetry(attempt, policy(), ended)) {
      expect(event).toEqual(text('a'));
      break;
    }
    expect(closed).toEqual([true]);
  });

  it('ends after a finish that comes first', async () => {
    const { attempt } = scripted([[finish, text('never read')]]);
    expect(await collect(streamWithModelRetry(attempt, policy(), ended))).toEqual([finish]);
  });
});
