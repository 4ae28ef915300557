import { describe, expect, it } from 'vitest';
import { linkSignals } from './link-signals.js';

describe('linkSignals', () => {
  it('uses a single signal as it is, and none as none', () => {
    const signal = new AbortController().signal;
    expect(linkSignals(signal, undefined).signal).toBe(signal);
    expect(linkSignals(undefined, signal).signal).toBe(signal);
    expect(linkSignals(undefined, undefined).signal).toBeUndefined();
  });

  it.each([0, 1])('aborts when source %i aborts, with its reason', (which) => {
    const sources = [new AbortController(), new AbortController()] as const;
    const linked = linkSignals(sources[0].signal, sources[1].signal);
    const reason = new Error(`source ${which}`);
    sources[which]!.abort(reason);
    expect(linked.signal?.aborted).toBe(true);
    expect(linked.signal?.reason).toBe(reason);
  });

  it('starts aborted when a source already is', () => {
    const reason = new Error('early');
    const linked = linkSignals(new AbortController().signal, AbortSignal.abort(reason));
    expect(linked.signal?.reason).toBe(reason);
  });

  it('stops following the sources once unlinked', () => {
    const agent = new AbortController();
    const turn = new AbortController();
    const linked = linkSignals(agent.signal, turn.signal);
    linked.unlink();
    agent.abort();
    expect(linked.signal?.aborted).toBe(false);
  });
});
