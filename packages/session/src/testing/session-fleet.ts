import type { SessionRecord } from '@weir/core';
import type { SessionStore } from '../session-store.js';

/**
 * The append side of a fleet test, for store authors: many processes run `serveFleetAppends` on
 * one shared store while a test SIGKILLs them, then `checkSessionFleet` reads every session back
 * against the acknowledgements the processes printed. Each writer appends user messages
 * `<pid>:<epoch>:<n>` (n from 0), so its records must form one unbroken run in the session; each
 * acknowledged append is printed as the line `ack <id> <seq> <content>` once the store resolved it,
 * and a writer that lost its session to a takeover prints `fenced <id>`.
 */
export interface FleetAppendOptions {
  readonly store: SessionStore;
  /** The sessions to pick from at random; each must exist (the test creates them first). */
  readonly sessionIds: readonly string[];
  /** Writes one line to the test (the process's stdout). */
  readonly print: (line: string) => void;
  /** Sessions served at once, as an agent server serves many conversations. Default 8. */
  readonly concurrency?: number;
}

/** Serves random sessions until the process is killed: open, append three to seven records, close. */
export function serveFleetAppends({ store, sessionIds, print, concurrency = 8 }: FleetAppendOptions): Promise<never> {
  const serve = async (): Promise<never> => {
    for (;;) {
      const id = sessionIds[Math.floor(Math.random() * sessionIds.length)]!;
      let session;
      try {
        session = await store.open(id);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SESSION_LOCKED') continue;
        throw error;
      }
      // The writer's tag: its records must stay one unbroken run in the session.
      const tag = `${process.pid}:${session.epoch}`;
      try {
        for (let n = 0; n < 3 + Math.floor(Math.random() * 5); n += 1) {
          const content = `${tag}:${n}`;
          const record = await session.append({ type: 'message', message: { role: 'user', content } });
          print(`ack ${id} ${record.seq} ${content}`);
        }
      } catch (error) {
        // A pause longer than the lease (a loaded machine) lets another process take the session over:
        // this writer is fenced, its refused append never acknowledged. A host drops such a session.
        if ((error as { code?: unknown }).code !== 'SESSION_FENCED') throw error;
        print(`fenced ${id}`);
      }
      await session.close().catch(() => undefined);
    }
  };
  return Promise.race(Array.from({ length: concurrency }, serve));
}

/** What `checkSessionFleet` found: every acknowledged append, by session. */
export interface FleetFigures {
  readonly acknowledged: number;
  readonly stored: number;
  readonly writers: number;
  /** Sessions written by more than one process. */
  readonly moved: number;
}

const contentOf = (record: SessionRecord) => (record.type === 'message' && typeof record.message.content === 'string' ? record.message.content : undefined);

/**
 * Throws on the first broken promise: an acknowledged record missing or changed, a writer's records
 * interleaved with another's (each writer's run is `<pid>:<epoch>:0, 1, 2...` unbroken), seqs with
 * a gap. Returns the figures otherwise.
 */
export function checkSessionFleet(acks: readonly string[], sessions: ReadonlyMap<string, readonly SessionRecord[]>): FleetFigures {
  for (const line of acks) {
    const [, id, seq, content] = line.split(' ');
    const record = sessions.get(id!)?.[Number(seq) - 1];
    if (record === undefined || contentOf(record) !== content) throw new Error(`acknowledged ${content} at ${id} seq ${seq} is not there (found ${record === undefined ? 'nothing' : contentOf(record)})`);
  }
  let stored = 0;
  const writers = new Set<string>();
  let moved = 0;
  for (const [id, records] of sessions) {
    const pids = new Set<string>();
    let previous: { tag: string; n: number } | undefined;
    const finished = new Set<string>();
    for (const [i, record] of records.entries()) {
      if (record.seq !== i + 1) throw new Error(`session ${id}: record ${i + 1} has seq ${record.seq}`);
      const content = contentOf(record);
      if (content === undefined) continue;
      stored += 1;
      const [pid, epoch, n] = content.split(':');
      const tag = `${pid}:${epoch}`;
      if (previous?.tag === tag) {
        if (Number(n) !== previous.n + 1) throw new Error(`session ${id}: writer ${tag} skipped from ${previous.n} to ${n}`);
      } else {
        if (previous !== undefined) finished.add(previous.tag);
        if (finished.has(tag) || Number(n) !== 0) throw new Error(`session ${id}: writer ${tag} interleaved with another (its record ${n} at seq ${record.seq})`);
      }
      previous = { tag, n: Number(n) };
      writers.add(`${id} ${tag}`);
      pids.add(pid!);
    }
    if (pids.size > 1) moved += 1;
  }
  return { acknowledged: acks.length, stored, writers: writers.size, moved };
}
