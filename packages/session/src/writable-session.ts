import { type AppendOptions, HarnessError, isHarnessError, type Logger, type RebuildHistoryOptions, type Session, type SessionEntry, type SessionHistory, type SessionRecord, type SessionRecovery } from '@weir/core';
import { prepareRecord } from './prepare-record.js';
import { rebuildHistory } from './rebuild-history.js';
import type { ImageBlob } from './image-blobs.js';
import type { WriterSession } from './session-store.js';

/** Where a session's records go: a file, or a store's memory. */
export interface RecordSink {
  /**
   * Writes one record's line in one write. Rejects on any failure, a short write included, and with
   * `HarnessError` `SESSION_FENCED` when this writer's epoch is no longer the session's (the session
   * then fails with that code).
   */
  write(bytes: Uint8Array, record: SessionRecord, blobs: readonly ImageBlob[]): Promise<void>;
  /** Makes everything written so far durable. */
  datasync(): Promise<void>;
  /** Closes the file and releases the lock. Must release the lock even if closing the file fails. */
  close(): Promise<void>;
}

export interface WritableSessionOptions {
  readonly id: string;
  /** The writer epoch the store handed out for this open. */
  readonly epoch: number;
  /** The records already in the session, oldest first (at least the session record). */
  readonly records: readonly SessionRecord[];
  readonly sink: RecordSink;
  readonly now: () => Date;
  readonly logger: Logger;
  readonly recovery?: SessionRecovery;
  /** Write inline images as blobs (`RecordSink.write` gets them) and name them by reference in the line. Default: false. */
  readonly storeImages?: boolean;
}

/**
 * The one implementation of `Session` behind every store: it numbers records, writes them one at a
 * time in call order, and after a failed write or sync refuses everything but `close()`, so a
 * session never goes on with persistence silently disabled.
 */
export class WritableSession implements WriterSession {
  readonly id: string;
  readonly epoch: number;
  readonly recovery: SessionRecovery | undefined;
  readonly #records: SessionRecord[];
  readonly #sink: RecordSink;
  readonly #now: () => Date;
  readonly #logger: Logger;
  #queue: Promise<unknown> = Promise.resolve();
  #failure: HarnessError | undefined;
  #closing: Promise<void> | undefined;
  #unsynced = false;
  readonly #storeImages: boolean;

  constructor(options: WritableSessionOptions) {
    this.id = options.id;
    this.epoch = options.epoch;
    this.recovery = options.recovery;
    this.#records = [...options.records];
    this.#sink = options.sink;
    this.#now = options.now;
    this.#logger = options.logger;
    this.#storeImages = options.storeImages ?? false;
  }

  records(): readonly SessionRecord[] {
    return Object.freeze([...this.#records]);
  }

  history(options?: RebuildHistoryOptions): SessionHistory {
    return rebuildHistory(this.#records, options);
  }

  append(entry: SessionEntry, options: AppendOptions = {}): Promise<SessionRecord> {
    return this.#enqueue(async () => {
      const prepared = prepareRecord(entry, this.#records.length + 1, this.#now().toISOString(), this.#storeImages);
      await this.#guard('write', () => this.#sink.write(prepared.bytes, prepared.record, prepared.blobs));
      this.#records.push(prepared.record);
      this.#unsynced = true;
      if (options.sync) await this.#datasync();
      return prepared.record;
    });
  }

  sync(): Promise<void> {
    return this.#enqueue(() => this.#datasync());
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Let queued appends finish (or fail) first; their callers see their own outcomes.
      await this.#queue.catch(() => undefined);
      let error: unknown;
      if (this.#failure === undefined && this.#unsynced) error = await this.#datasync().catch((e: unknown) => e);
      try {
        await this.#sink.close();
      } catch (closeError) {
        this.#logger.warn({ sessionId: this.id, err: closeError }, 'session: closing the file failed');
      }
      if (error !== undefined) throw error;
    })();
    return this.#closing;
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    // Checked when called: what was queued before close() still runs, nothing after it does.
    if (this.#closing) return Promise.reject(new HarnessError('SESSION_WRITE_FAILED', `Session ${this.id} is closed.`));
    const run = this.#queue.then(() => {
      if (this.#failure) {
        throw new HarnessError(this.#failure.code, `Session ${this.id} stopped accepting records after a failed write: ${this.#failure.message}`, {
          cause: this.#failure,
        });
      }
      return task();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #datasync(): Promise<void> {
    if (!this.#unsynced) return;
    await this.#guard('sync', () => this.#sink.datasync());
    this.#unsynced = false;
  }

  /** Runs one I/O step; on failure the session is failed for good (after a failed fsync nothing written is trustworthy). */
  async #guard(what: 'write' | 'sync', step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (isHarnessError(error) && error.code === 'SESSION_FENCED') {
        this.#failure = error;
        this.#logger.warn({ sessionId: this.id, epoch: this.epoch }, 'session: fenced off by a newer writer, no more records are accepted');
        throw error;
      }
      const code = (error as { code?: unknown }).code;
      const failure = new HarnessError(
        'SESSION_WRITE_FAILED',
        `Session ${this.id}: the ${what} failed${typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error).message}. The session accepts no more records; reopen it to recover.`,
        { cause: error },
      );
      this.#failure = failure;
      this.#logger.error({ sessionId: this.id, err: error }, `session: ${what} failed, no more records are accepted`);
      throw failure;
    }
  }
}
