import type { RebuildHistoryOptions, SessionHistory } from './rebuild-history.js';
import type { SessionEntry, SessionRecord } from './session-record.js';

export interface AppendOptions {
  /**
   * Make the record (and every record before it) durable before the promise resolves: `fdatasync`
   * on a file store. Ask for it before a side-effecting tool runs, after each tool result and at
   * the end of a turn.
   */
  readonly sync?: boolean;
}

/** A torn tail that was cut off when the session was opened. */
export interface SessionRecovery {
  /** The file length kept (where the last good record ends). */
  readonly offset: number;
  /** How many bytes were cut. */
  readonly droppedBytes: number;
  readonly reason: string;
}

/**
 * One open session, held by one writer (its store's lock) until `close()`. Appends are written in call
 * order, one at a time. After a write or sync failure the session refuses every further append.
 */
export interface Session {
  readonly id: string;
  /** The tail cut off when the session was opened, if any. */
  readonly recovery: SessionRecovery | undefined;
  /** Every record, oldest first: those read at open and those appended since. Frozen. */
  records(): readonly SessionRecord[];
  /** The history for the model, rebuilt from `records()`. Never throws. */
  history(options?: RebuildHistoryOptions): SessionHistory;
  /**
   * Appends one record with the next `seq` and resolves to it once written (and synced, with
   * `sync: true`). Rejects with `HarnessError` `SESSION_WRITE_FAILED` when the write or sync fails
   * (the session then refuses all further appends) or when the session is closed or failed, and
   * with `INVALID_SESSION_RECORD` when the entry is not a valid record (nothing is written then,
   * and the session stays usable).
   */
  append(entry: SessionEntry, options?: AppendOptions): Promise<SessionRecord>;
  /** Makes every record appended so far durable. Rejects with `SESSION_WRITE_FAILED` like `append`. */
  sync(): Promise<void>;
  /**
   * Waits for pending appends, syncs, closes the file and releases the lock. Idempotent. Rejects with
   * `SESSION_WRITE_FAILED` if that last sync fails (the lock is released all the same).
   */
  close(): Promise<void>;
}

/** A session in a listing. */
export interface SessionSummary {
  readonly id: string;
  /** ISO 8601. */
  readonly created: string;
  /** ISO 8601 time of the last record. */
  readonly updated: string;
  /** Messages in the rebuilt history. */
  readonly messageCount: number;
  /** The session's title, else the start of its first user message. */
  readonly title: string | undefined;
  readonly forkedFrom: { readonly id: string; readonly seq: number } | undefined;
  /** True when the file is damaged: opening it fails with `SESSION_CORRUPT`. The other fields are then best effort. */
  readonly corrupt: boolean;
}

export interface CreateSessionOptions {
  /** Default: a new time-sortable id (`createSessionId()`). */
  readonly id?: string;
  readonly title?: string;
}

export interface ForkSessionOptions {
  /** Default: a new id. */
  readonly id?: string;
  /** The last source record to copy. Default: all of them. Cutting at a `turn_end` keeps whole turns. */
  readonly throughSeq?: number;
  /** Default: the source's title. */
  readonly title?: string;
}

/**
 * Where sessions live. `createMemorySessionStore()` (the default) keeps them for the life of the
 * process; `createFileSessionStore(dir)` keeps one append-only JSONL file per session.
 *
 * Errors are `HarnessError`s: `INVALID_SESSION_ID` (an id that is not safe as a file name),
 * `SESSION_EXISTS` (`create`/`fork` with an id that exists), `SESSION_NOT_FOUND`, `SESSION_LOCKED` (another live writer holds it), `SESSION_CORRUPT`
 * (damage a crash cannot explain; a copy is kept), `SESSION_WRITE_FAILED`.
 */
export interface SessionStore {
  /** Creates a session and opens it for writing. Its first record (seq 1) is the session record. */
  create(options?: CreateSessionOptions): Promise<Session>;
  /** Opens an existing session for writing (resume), cutting off a torn tail first. */
  open(id: string): Promise<Session>;
  /** Reads a session's records without taking the lock or repairing anything (a torn tail is ignored). */
  read(id: string): Promise<readonly SessionRecord[]>;
  /** Every session, most recently updated first. */
  list(): Promise<SessionSummary[]>;
  /**
   * Creates a session whose records copy the source's up to `throughSeq`, with `forkedFrom` in its
   * session record, and opens it for writing. The source is only read.
   */
  fork(sourceId: string, options?: ForkSessionOptions): Promise<Session>;
}
