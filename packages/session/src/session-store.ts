import type { BlobCollection } from './collect-blobs.js';
import type { Session, SessionRecord } from '@weir/core';

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

/**
 * One page of `list`. Pages are keyset pages over the listing order (most recently updated first,
 * then by id): pass the last summary of a page as `after` for the next. A session updated while you
 * page moves to the front, so it shows again on a fresh listing, not in a later page.
 */
export interface ListSessionsOptions {
  /** At most this many summaries (a positive integer). Default: all of them. */
  readonly limit?: number;
  /** Only sessions listed after this one: the last summary of the previous page (its `updated` and `id`). */
  readonly after?: { readonly updated: string; readonly id: string };
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

export interface OpenSessionOptions {
  /**
   * Take the session from its current writer even if that writer looks alive (an operator who knows
   * its host is gone). The old writer is fenced: its next append rejects with `SESSION_FENCED` and
   * nothing it writes after the takeover is read by anyone. Default: false (`SESSION_LOCKED`).
   */
  readonly takeOver?: boolean;
}

/**
 * A session open for writing, with the writer epoch the store handed out when it opened it. Epochs
 * of one session only grow: each open (create, fork, resume, takeover) gets a larger one, and a
 * write under an epoch that is no longer the session's current one is refused (`SESSION_FENCED`).
 */
export interface WriterSession extends Session {
  readonly epoch: number;
}

/**
 * Where sessions live. `createMemorySessionStore()` (the default) keeps them for the life of the
 * process; `createFileSessionStore(dir)` keeps one append-only JSONL file per session.
 *
 * Errors are `HarnessError`s: `INVALID_SESSION_ID` (an id that is not safe as a file name),
 * `SESSION_EXISTS` (`create`/`fork` with an id that exists), `SESSION_NOT_FOUND`, `SESSION_LOCKED` (another live writer holds it),
 * `SESSION_FENCED` (an append from a writer whose session was taken over since), `SESSION_CORRUPT`
 * (damage a crash cannot explain; a copy is kept), `SESSION_WRITE_FAILED`.
 */
export interface SessionStore {
  /** Creates a session and opens it for writing. Its first record (seq 1) is the session record. */
  create(options?: CreateSessionOptions): Promise<WriterSession>;
  /** Opens an existing session for writing (resume), cutting off a torn tail first. */
  open(id: string, options?: OpenSessionOptions): Promise<WriterSession>;
  /** Reads a session's records without taking the lock or repairing anything (a torn tail is ignored). */
  read(id: string): Promise<readonly SessionRecord[]>;
  /**
   * Every session, most recently updated first (ties by id, descending), or one page of them with
   * `limit` and `after`. Rejects with `TypeError` for a `limit` that is not a positive integer or an
   * `after` without string `updated` and `id`. A store may ignore the options only if it was written
   * before them (the conformance suite checks paging).
   */
  list(options?: ListSessionsOptions): Promise<SessionSummary[]>;
  /**
   * Creates a session whose records copy the source's up to `throughSeq`, with `forkedFrom` in its
   * session record, and opens it for writing. The source is only read.
   */
  fork(sourceId: string, options?: ForkSessionOptions): Promise<WriterSession>;
  /**
   * Removes a session: `SESSION_NOT_FOUND` when there is none, `SESSION_LOCKED` while a writer holds
   * it. Then collects the blobs nobody names any more, and resolves to what that removed. Optional
   * so a store written before it still type-checks; the memory and file stores have it.
   */
  delete?(id: string): Promise<BlobCollection>;
  /**
   * Removes the stored image blobs no session names any more (`weir sessions gc`). Safe beside live
   * writers: a blob an append is writing or reusing is kept (the file store keeps any blob written
   * or reused within `blobGraceMs`). A store that keeps images inline removes nothing. Optional like `delete`.
   */
  collectGarbage?(): Promise<BlobCollection>;
}
