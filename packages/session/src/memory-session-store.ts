import { HarnessError, type Logger, type Session, type SessionMeta, type SessionRecord } from '@weir/core';
import { silentLogger } from './silent-logger.js';
import { prepareRecord } from './prepare-record.js';
import { assertSessionId, createSessionId } from './session-id.js';
import type { CreateSessionOptions, ForkSessionOptions, SessionStore, SessionSummary } from './session-store.js';
import { planFork } from './plan-fork.js';
import { byUpdatedDescending, summarizeSession } from './summarize-session.js';
import { WritableSession } from './writable-session.js';

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
  const held = new Set<string>();

  const openWriter = (id: string, records: SessionRecord[]): Session => {
    if (held.has(id)) throw new HarnessError('SESSION_LOCKED', `Session ${id} is already open in this process. Close it first.`);
    held.add(id);
    return new WritableSession({
      id,
      records,
      now,
      logger,
      sink: {
        write: async (_bytes, record) => void records.push(record),
        datasync: async () => undefined,
        close: async () => void held.delete(id),
      },
    });
  };

  const begin = (id: string, meta: SessionMeta, copied: readonly SessionRecord[]): Session => {
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
    async open(id) {
      return openWriter(id, recordsOf(id));
    },
    async read(id) {
      return Object.freeze([...recordsOf(id)]);
    },
    async list() {
      const summaries: SessionSummary[] = [...sessions].map(([id, records]) => summarizeSession(id, records, now().toISOString()));
      return summaries.sort(byUpdatedDescending);
    },
    async fork(sourceId, fork: ForkSessionOptions = {}) {
      const { id, meta, copied } = planFork(sourceId, recordsOf(sourceId), fork, now());
      return begin(id, meta, copied);
    },
  };
}
