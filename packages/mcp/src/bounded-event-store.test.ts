import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedEventStore } from './bounded-event-store.js';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: n } });

async function replay(store: BoundedEventStore, after: string): Promise<{ stream: string; sent: Array<[string, JSONRPCMessage]> }> {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return { stream, sent };
}

describe('BoundedEventStore', () => {
  it('replays every event of the stream after the cursor, not the priming event, not other streams', async () => {
    const store = new BoundedEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(99));
    const second = await store.storeEvent('a', note(2));
    expect(await store.getStreamIdForEventId(first)).toBe('a');
    const { stream, sent } = await replay(store, priming);
    expect(stream).toBe('a');
    expect(sent).toEqual([
      [first, note(1)],
      [second, note(2)],
    ]);
    expect((await replay(store, second)).sent).toEqual([]);
  });

  it('keeps at most maxEvents per stream and refuses a resume that would miss a dropped one', async () => {
    const store = new BoundedEventStore({ maxEvents: 3, maxBytes: 1 << 20, maxStreams: 8, maxTotalBytes: 1 << 20 });
    const ids: string[] = [];
    for (let n = 1; n <= 6; n += 1) ids.push(await store.storeEvent('a', note(n)));
    expect(store.size).toBe(3);
    // Events 1 to 3 were dropped: resuming after 1 would lose 2 and 3.
    await expect(replay(store, ids[0]!)).rejects.toThrow(/dropped/);
    // After 3, nothing it needs is gone.
    expect((await replay(store, ids[2]!)).sent.map(([, message]) => (message as unknown as { params: { progress: number } }).params.progress)).toEqual([4, 5, 6]);
  });

  it('keeps at most maxBytes per stream, and at most maxStreams streams (the least recently written goes)', async () => {
    const size = Buffer.byteLength(JSON.stringify(note(1)));
    const store = new BoundedEventStore({ maxEvents: 100, maxBytes: size * 2, maxStreams: 2, maxTotalBytes: 1 << 20 });
    for (let n = 1; n <= 5; n += 1) await store.storeEvent('a', note(n));
    expect(store.size).toBe(2);
    const fromB = await store.storeEvent('b', note(1));
    await store.storeEvent('c', note(1));
    // 'a' was written least recently: it is gone, and so is a resume on it.
    expect(store.size).toBe(2);
    expect(await store.getStreamIdForEventId('a_1')).toBeUndefined();
    await expect(replay(store, 'a_5')).rejects.toThrow(/no such stream/);
    expect(await store.getStreamIdForEventId(fromB)).toBe('b');
  });

  it('keeps at most maxTotalBytes over the streams: the least recently written go, the one written now stays', async () => {
    const size = Buffer.byteLength(JSON.stringify(note(1)));
    const store = new BoundedEventStore({ maxEvents: 100, maxBytes: 1 << 20, maxStreams: 100, maxTotalBytes: size * 3 });
    await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(1));
    await store.storeEvent('c', note(1));
    expect(store.size).toBe(3);
    await store.storeEvent('c', note(2));
    expect(await store.getStreamIdForEventId('a_1')).toBeUndefined();
    expect(await store.getStreamIdForEventId('b_2')).toBe('b');
    expect(store.size).toBe(3);
    // One event over the whole budget is still kept: it may be the result a resume must deliver.
    const big: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(size * 10) } };
    const id = await store.storeEvent('d', big);
    expect(store.size).toBe(1);
    const justBefore = `d_${Number(id.split('_')[1]) - 1}`;
    expect((await replay(store, justBefore)).sent).toEqual([[id, big]]);
  });

  it('a malformed event id is no stream', async () => {
    const store = new BoundedEventStore();
    await store.storeEvent('a', note(1));
    for (const id of ['', 'a', 'a_', 'a_x', '_1', 'a_-1']) expect(await store.getStreamIdForEventId(id)).toBeUndefined();
  });
});
