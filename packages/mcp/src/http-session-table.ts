/** One session as the table sees it: when it was last used, and what of it is open. */
interface Slot<T> {
  readonly value: T;
  lastSeen: number;
  /** Requests under way (a POST: a call, a list). */
  calls: number;
  /** Notification streams open (a GET the client keeps to hear the server). */
  streams: number;
}

/** What an open request is: a call under way, or a stream the client listens on. */
export type RequestKind = 'call' | 'stream';

/**
 * The sessions of one HTTP server: at most `max` at once. A session with nothing open for `idleMs`
 * is ended (a client that keeps a notification stream open is still there). A new session when the
 * table is full takes the place of the oldest idle one: one with nothing open first, else one that
 * only listens (its client gets 404 and starts a new session, as the protocol says); only when every
 * session has a call under way is it refused. Times are `performance.now()` milliseconds.
 */
export class HttpSessionTable<T> {
  readonly #slots = new Map<string, Slot<T>>();

  constructor(
    readonly max: number,
    readonly idleMs: number,
    private readonly end: (value: T) => void,
  ) {}

  get size(): number {
    return this.#slots.size;
  }

  get(id: string): T | undefined {
    return this.#slots.get(id)?.value;
  }

  /** Marks a request of the session open until `done` is called; returns `done`. */
  begin(id: string, kind: RequestKind): () => void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return noop;
    const field = kind === 'call' ? 'calls' : 'streams';
    slot[field] += 1;
    slot.lastSeen = performance.now();
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      slot[field] -= 1;
      slot.lastSeen = performance.now();
    };
  }

  add(id: string, value: T): void {
    this.#slots.set(id, { value, lastSeen: performance.now(), calls: 0, streams: 0 });
  }

  /** Forgets a session that ended (its transport closed). */
  delete(id: string): void {
    this.#slots.delete(id);
  }

  /** Whether one more session may start: true once a place is free, after ending the oldest idle session if it must. */
  makeRoom(): boolean {
    if (this.#slots.size < this.max) return true;
    let oldest: [string, Slot<T>] | undefined;
    for (const entry of this.#slots) {
      const slot = entry[1];
      if (slot.calls > 0) continue;
      if (oldest === undefined || rank(slot) < rank(oldest[1]) || (rank(slot) === rank(oldest[1]) && slot.lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#slots.delete(oldest[0]);
    this.end(oldest[1].value);
    return true;
  }

  /** Ends every session idle for `idleMs` or more. */
  sweep(now = performance.now()): void {
    for (const [id, slot] of this.#slots) {
      if (slot.calls > 0 || slot.streams > 0 || now - slot.lastSeen < this.idleMs) continue;
      this.#slots.delete(id);
      this.end(slot.value);
    }
  }

  /** Takes every session out of the table (to close them all). */
  drain(): T[] {
    const values = [...this.#slots.values()].map((slot) => slot.value);
    this.#slots.clear();
    return values;
  }
}

// Nothing open goes first, then a session that only listens.
function rank(slot: Slot<unknown>): number {
  return slot.streams === 0 ? 0 : 1;
}

function noop(): void {}
