import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAIError } from './openai-error.js';
import { withModelRetry, type RetryEvent } from './with-model-retry.js';

const retryable = (retryAfterMs?: number) => new OpenAIError('RATE_LIMITED', 'slow down', { retryable: true, ...(retryAfterMs !== undefined && { retryAfterMs }) });

function policy(overrides: Partial<Parameters<typeof withModelRetry>[1]> = {}) {
  const events: RetryEvent[] = [];
  return { events, policy: { maxRetries: 3, maxRetryDelayMs: 60_000, signal: new AbortController().signal, remainingMs: () => Number.POSITIVE_INFINITY, onRetry: (event: RetryEvent) => events.push(event), ...overrides } };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('withModelRetry', () => {
  it('waits the hinted time between attempts, on the clock', async () => {
    const attempt = vi.fn().mockRejectedValueOnce(retryable(2_000)).mockResolvedValueOnce('ok');
    const { policy: p, events } = policy();
    const result = withModelRetry(attempt, p);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('ok');
    expect(attempt).toHaveBeenCalledTimes(2);
    expect(attempt.mock.calls.map((call) => call[0])).toEqual([1, 2]);
    expect(events.map((event) => [event.attempt, event.delayMs])).toEqual([[1, 2_000]]);
  });

  it('never retries a non-retryable error, nor anything that is not an OpenAIError', async () => {
    for (const error of [new OpenAIError('AUTHENTICATION', 'no'), new Error('bug'), new TypeError('x is not a function')]) {
      const attempt = vi.fn().mockRejectedValue(error);
      await expect(withModelRetry(attempt, policy().policy)).rejects.toBe(error);
      expect(attempt).toHaveBeenCalledTimes(1);
    }
  });

  it('gives up after maxRetries with the last error', async () => {
    const last = retryable(10);
    const attempt = vi.fn().mockRejectedValueOnce(retryable(10)).mockRejectedValueOnce(retryable(10)).mockRejectedValueOnce(last);
    const result = withModelRetry(attempt, policy({ maxRetries: 2 }).policy);
    const settled = expect(result).rejects.toBe(last);
    await vi.advanceTimersByTimeAsync(100);
    await settled;
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('surfaces at once a wait above the cap or past the deadline', async () => {
    for (const overrides of [{ maxRetryDelayMs: 5_000 }, { remainingMs: () => 6_000 }]) {
      const error = retryable(7_000);
      const attempt = vi.fn().mockRejectedValue(error);
      const { policy: p, events } = policy(overrides);
      await expect(withModelRetry(attempt, p)).rejects.toBe(error);
      expect(attempt).toHaveBeenCalledTimes(1);
      expect(events).toEqual([]);
    }
  });

  it('an abort during a wait rejects with the reason and clears the timer', async () => {
    const controller = new AbortController();
    const attempt = vi.fn().mockRejectedValue(retryable(30_000));
    const result = withModelRetry(attempt, policy({ signal: controller.signal }).policy);
    const settled = expect(result).rejects.toBe('cancelled');
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort('cancelled');
    await settled;
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
