import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortableSleep } from './abortable-sleep.js';

describe('abortableSleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after its time, and leaves no listener on the signal', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    let done = false;
    const sleeping = abortableSleep(1_000, controller.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it('rejects with the signal reason as soon as the signal aborts, and its timer is cleared', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reason = new Error('stopped');
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once with the reason of a signal that already aborted', async () => {
    const reason = new Error('before');
    await expect(abortableSleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
