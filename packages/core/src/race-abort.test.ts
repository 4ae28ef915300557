import { describe, expect, it } from 'vitest';
import { raceAbort } from './race-abort.js';

describe('raceAbort', () => {
  it('returns the promise itself when there is no signal', () => {
    const promise = Promise.resolve(1);
    expect(raceAbort(promise, undefined)).toBe(promise);
  });

  it('settles like the promise when the signal does not abort', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve('value'), controller.signal)).resolves.toBe('value');
    await expect(raceAbort(Promise.reject(new Error('failed')), controller.signal)).rejects.toThrow('failed');
  });

  it('rejects with the reason as soon as the signal aborts, without waiting for the promise', async () => {
    const controller = new AbortController();
    const raced = raceAbort(new Promise(() => {}), controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(raced).rejects.toBe(reason);
  });

  it('rejects at once for a signal that has already aborted', async () => {
    const reason = new Error('too late');
    await expect(raceAbort(Promise.resolve(1), AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('removes its listener once the promise settles', async () => {
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => (added++, add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => (removed++, remove(...args))) as typeof remove;
    await raceAbort(Promise.resolve(1), signal);
    await raceAbort(Promise.reject(new Error('x')), signal).catch(() => undefined);
    expect([added, removed]).toEqual([2, 2]);
  });
});
