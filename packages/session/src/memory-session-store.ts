import { HarnessError, type Logger, type SessionMeta, type SessionRecord } from '@weir/core';
import { fenced } from './fenced-error.js';
import { silentLogger } from './silent-logger.js';
import { prepareRecord } from './prepare-record.js';
import { assertSessionId, createSessionId } from './session-id.js';
import type { CreateSessionOptions, ForkSessionOptions, OpenSessionOptions, SessionStore, SessionSummary, WriterSession } from './session-store.js';
import { planFork } from './plan-fork.js';
import { byUpdatedDescending, summarizeSession } from './summarize-session.js';
import { pageOfSummaries } from './page-of-summaries.js';
import { WritableSession } from './writable-session.js';

const NOTHING_COLLECTED = Object.freeze({ removed: 0, kept: 0 });

export interface MemorySessionStoreOptions {
  readonly logger?: Logger;
  /** The clock for record times. Default: `new Date()`. */
  readonly now?: () => Date;
}

/**
 * A `SessionStore` that keeps sessions in memory for the life of the process: the default, and the
 * store for tests. It follows the file store's rules (one writer per session, records checked and
 * stored as their JSON reads back) without the durability. Never throws; its methods reject with
 * the `HarnessError`s listed on `SessionStore`.
 */
export function createMemorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore {
  const logger = options.logger ?? silentLogger();
  const now = options.now ?? (() => new Date());
  const sessions = new Map<string, SessionRecord[]>();
  /** The epoch of each session's current writer; absent when nobody holds it. */
  const held = new Map<string, number>();
  /** The last epoch handed out per session: epochs only grow, across closes too. */
  const epochs = new Map<string, number>();

  const openWriter = (id: string, records: SessionRecord[], takeOver = false): WriterSession => {
    if (held.has(id) && !takeOver) throw new HarnessError('SESSION_LOCKED', `Session ${id} is already open in this process. Close it first.`);
    const epoch = (epochs.get(id) ?? 0) + 1;
    epochs.set(id, epoch);
    held.set(id, epoch);
    return new WritableSession({
      id,
      epoch,
      records,
      now,
      logger,
      sink: {
        async write(_bytes, record) {
          if (held.get(id) !== epoch) throw fenced(id, epoch, held.get(id));
          records.push(record);
        },
        datasync: async () => undefined,
        close: async () => void (held.get(id) === epoch && held.delete(id)),
      },
    });
  };

  const begin = (id: string, meta: SessionMeta, copied: readonly SessionRecord[]): WriterSession => {
    if (sessions.has(id)) throw new HarnessError('SESSION_EXISTS', `A session with id ${id} already exists.`);
    const records = [prepareRecord(meta, 1, meta.created).record, ...copied];
    sessions.set(id, records);
    return openWriter(id, records);
  };

  const recordsOf = (id: string): SessionRecord[] => {
    assertSessionId(id);
    const records = sessions.get(id);
    if (records === undefined) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id}.`);
    return records;
  };

  return {
    async create(create: CreateSessionOptions = {}) {
      const at = now();
      const id = create.id ?? createSessionId(at.getTime());
      assertSessionId(id);
      return begin(id, { type: 'session', id, created: at.toISOString(), ...(create.title === undefined ? {} : { title: create.title }) }, []);
    },
    async open(id, open: OpenSessionOptions = {}) {
      return openWriter(id, recordsOf(id), open.takeOver === true);
    },
    async read(id) {
      return Object.freeze([...recordsOf(id)]);
    },
    async list(options) {
      const summaries: SessionSummary[] = [...sessions].map(([id, records]) => summarizeSession(id, records, now().toISOString()));
      return pageOfSummaries(summaries.sort(byUpdatedDescending), options);
    },
    async fork(sourceId, fork: ForkSessionOptions = {}) {
      const { id, meta, copied } = planFork(sourceId, recordsOf(sourceId), fork, now());
      return begin(id, meta, copied);
    },
    async delete(id) {
      recordsOf(id);
      if (held.has(id)) throw new HarnessError('SESSION_LOCKED', `Session ${id} is open in this process. Close it before deleting it.`);
      sessions.delete(id);
      return NOTHING_COLLECTED;
    },
    // Images stay inline in the records: there are no blobs apart to collect.
    collectGarbage: async () => NOTHING_COLLECTED,
  };
}
