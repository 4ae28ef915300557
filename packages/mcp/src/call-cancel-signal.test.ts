import { describe, expect, it } from 'vitest';
import { CallCancelSignal } from './call-cancel-signal.js';

describe('CallCancelSignal', () => {
  it('reads like an AbortSignal: not aborted, then aborted with the first reason', () => {
    const signal = new CallCancelSignal();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    expect(() => signal.throwIfAborted()).not.toThrow();
    signal.abort(new Error('deadline'));
    signal.abort(new Error('later'));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toEqual(new Error('deadline'));
    expect(() => signal.throwIfAborted()).toThrow('deadline');
  });

  it('tells each abort listener once, with an abort event; a removed one, or one added after, is not told', () => {
    const signal = new CallCancelSignal();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    signal.addEventListener('abort', (event) => heard.push(`fn:${event.type}`));
    signal.addEventListener('abort', { handleEvent: (event) => heard.push(`object:${event.type}`) });
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    signal.addEventListener('other', () => heard.push('other'));
    signal.abort('stop');
    signal.abort('again');
    signal.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual(['fn:abort', 'object:abort']);
  });

  it('a listener that throws does not keep the others from hearing; its error comes out after', () => {
    const signal = new CallCancelSignal();
    const heard: string[] = [];
    signal.addEventListener('abort', () => {
      throw new Error('listener broke');
    });
    signal.addEventListener('abort', () => heard.push('second'));
    expect(() => signal.abort('stop')).toThrow('listener broke');
    expect(heard).toEqual(['second']);
  });
});
