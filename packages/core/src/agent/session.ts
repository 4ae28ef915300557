import type { RebuildHistoryOptions, SessionHistory } from './session-history.js';
import type { SessionEntry, SessionRecord } from './session-record.js';

// The interface the agent loop records a conversation through. The stores that implement it (memory,
// file) live in @weir/session, which depends on core; a store backed by a database is one more package.

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
