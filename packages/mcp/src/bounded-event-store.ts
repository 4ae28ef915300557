import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** How much one session's event store keeps. */
export interface EventStoreLimits {
  /** Events kept per stream (the oldest is dropped first). */
  readonly maxEvents: number;
  /** Bytes of JSON kept per stream (the oldest events are dropped first). */
  readonly maxBytes: number;
  /** Streams kept (one per POST that answered with SSE, plus the GET stream); the least recently written is dropped. */
  readonly maxStreams: number;
  /** Bytes kept over every stream of the session: past it, the least recently written streams are dropped. */
  readonly maxTotalBytes: number;
}

/** One session at most keeps 8 MiB: 64 sessions (the server's default) hold at most 512 MiB of events. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = Object.freeze({ maxEvents: 1_000, maxBytes: 2 * 1024 * 1024, maxStreams: 32, maxTotalBytes: 8 * 1024 * 1024 });

interface StoredEvent {
  readonly seq: number;
  /** `undefined` for the priming event: it carries no message and is never replayed. */
  readonly message: JSONRPCMessage | undefined;
  readonly bytes: number;
}

interface Stream {
  readonly events: StoredEvent[];
  bytes: number;
  /** The highest sequence number dropped from this stream (0: none): a cursor before it would miss events. */
  droppedThrough: number;
}

/**
 * The SDK's `EventStore` for one Streamable HTTP session, in memory and bounded: each stream keeps
 * its latest events within `maxEvents` and `maxBytes`, and at most `maxStreams` streams, within
 * `maxTotalBytes` together, are kept (the least recently written go first).
 * A client that lost its stream reconnects with `Last-Event-ID` and gets every event after it. A
 * resume that would miss events (they were dropped to stay in bounds, or the stream was) is refused
 * rather than replayed with a hole: the SDK answers it with an error, and the client retries its call.
 * Event ids are `<stream>_<n>`, `n` growing across the session.
 */
export class BoundedEventStore implements EventStore {
  readonly #streams = new Map<string, Stream>();
  readonly #limits: EventStoreLimits;
  #seq = 0;
  #totalBytes = 0;

  constructor(limits: EventStoreLimits = DEFAULT_EVENT_STORE_LIMITS) {
    this.#limits = limits;
  }

  /** Events kept, over every stream (for tests and diagnostics). */
  get size(): number {
    let count = 0;
    for (const stream of this.#streams.values()) count += stream.events.length;
    return count;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    // The SDK stores `{}` for the priming event: an id the client can resume from, nothing to replay.
    const priming = !('jsonrpc' in message);
    const bytes = priming ? 0 : Buffer.byteLength(JSON.stringify(message));
    let stream = this.#streams.get(streamId);
    if (stream === undefined) stream = { events: [], bytes: 0, droppedThrough: 0 };
    // Re-inserted on every write: the Map's first entry is the least recently written stream.
    this.#streams.delete(streamId);
    this.#streams.set(streamId, stream);
    const seq = ++this.#seq;
    stream.events.push({ seq, message: priming ? undefined : message, bytes });
    stream.bytes += bytes;
    this.#totalBytes += bytes;
    // The newest event always stays: it may be the call's result, which a resume must deliver.
    while (stream.events.length > this.#limits.maxEvents || (stream.bytes > this.#limits.maxBytes && stream.events.length > 1)) {
      const dropped = stream.events.shift()!;
      stream.bytes -= dropped.bytes;
      this.#totalBytes -= dropped.bytes;
      stream.droppedThrough = dropped.seq;
    }
    while (this.#streams.size > 1 && (this.#streams.size > this.#limits.maxStreams || this.#totalBytes > this.#limits.maxTotalBytes)) {
      const [oldest, dropped] = this.#streams.entries().next().value!;
      this.#streams.delete(oldest);
      this.#totalBytes -= dropped.bytes;
    }
    return `${streamId}_${seq}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const cursor = parseEventId(eventId);
    return cursor !== undefined && this.#streams.has(cursor.streamId) ? cursor.streamId : undefined;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const cursor = parseEventId(lastEventId);
    const stream = cursor === undefined ? undefined : this.#streams.get(cursor.streamId);
    if (cursor === undefined || stream === undefined) throw new Error(`Cannot resume after event ${JSON.stringify(lastEventId)}: this session keeps no such stream.`);
    if (cursor.seq < stream.droppedThrough) {
      throw new Error(`Cannot resume after event ${JSON.stringify(lastEventId)}: events after it were dropped (the stream passed its bounds); call again.`);
    }
    // The live list, by sequence number: an event stored while the replay awaits is sent too (the
    // SDK then skips it on the live stream), and one dropped meanwhile stops the replay.
    let after = cursor.seq;
    for (let next = stream.events.find((event) => event.seq > after); next !== undefined; next = stream.events.find((event) => event.seq > after)) {
      if (after < stream.droppedThrough) throw new Error(`Cannot resume after event ${JSON.stringify(lastEventId)}: events were dropped while it was replayed; call again.`);
      after = next.seq;
      if (next.message !== undefined) await send(`${cursor.streamId}_${next.seq}`, next.message);
    }
    return cursor.streamId;
  }
}

function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf('_');
  if (at <= 0) return undefined;
  const seq = Number(eventId.slice(at + 1));
  return Number.isSafeInteger(seq) && seq > 0 ? { streamId: eventId.slice(0, at), seq } : undefined;
}
