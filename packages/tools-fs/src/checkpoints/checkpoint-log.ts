import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { isFileState, type FileState } from './file-state.js';

/** One file a rewind (or a redo) set: what it held before, and what it holds after. */
export interface RewoundFile {
  readonly path: string;
  readonly before: FileState;
  readonly after: FileState;
}

/** What a rewind was asked to do. */
export type RewindScope = 'files' | 'conversation' | 'both';

/**
 * One line of `checkpoints.jsonl`. `turn` is the seq of the user message that started the turn.
 * `prior`: the state before the turn's first change of `path` (one per turn and path); `wrote`: the
 * state a call of the turn left `path` in (what weir last wrote); `rewind` and `redo`: finished ones.
 */
export type CheckpointEntry =
  | { readonly t: 'prior'; readonly turn: number; readonly path: string; readonly state: FileState }
  | { readonly t: 'wrote'; readonly turn: number; readonly path: string; readonly state: FileState }
  | {
      readonly t: 'rewind';
      readonly id: number;
      readonly toTurn: number;
      readonly scope: RewindScope;
      readonly files: readonly RewoundFile[];
      /** The seq of the session's rewind record, when the conversation was cut. */
      readonly record?: number;
      readonly at: string;
    }
  | { readonly t: 'redo'; readonly of: number; readonly files: readonly RewoundFile[]; readonly record?: number; readonly at: string };

/**
 * The append-only log of a session's checkpoints: one JSON line per entry, each one synchronous
 * `write()` on a file opened for appending, in call order. A torn last line (a crash mid-write) is skipped when
 * read and cut off before the next append; a line that does not parse elsewhere is skipped with a
 * warning (the log is an index: the blobs hold the bytes).
 */
export class CheckpointLog {
  readonly path: string;
  /** Opened for appending on the first append. Appends are synchronous: a line is small, and a trip to the thread pool per append would cost a tool call more than the write does. */
  #fd: number | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #unsynced = false;

  private constructor(path: string) {
    this.path = path;
  }

  /** Reads the entries already there (the log is created on the first append). Throws a system error other than ENOENT. */
  static async open(path: string, warn: (message: string) => void): Promise<{ log: CheckpointLog; entries: CheckpointEntry[] }> {
    const log = new CheckpointLog(path);
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const entries: CheckpointEntry[] = [];
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length) {
      // A torn tail: cut it so the next line starts clean.
      const handle = await open(path, 'r+');
      await handle.truncate(Buffer.byteLength(text.slice(0, complete)));
      await handle.close();
    }
    for (const line of text.slice(0, complete).split('\n')) {
      if (line === '') continue;
      const entry = parseEntry(line);
      if (entry === undefined) warn(`checkpoints: a line of ${path} is not a checkpoint entry; it is skipped`);
      else entries.push(entry);
    }
    return { log, entries };
  }

  /** Appends one entry (not synced; `sync()` makes it durable). Throws a system error. */
  append(entry: CheckpointEntry): Promise<void> {
    try {
      this.#fd ??= openSync(this.path, 'a');
      writeSync(this.#fd, `${JSON.stringify(entry)}\n`);
      this.#unsynced = true;
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** Makes every entry appended so far durable. */
  sync(): Promise<void> {
    return this.#enqueue(async () => {
      if (!this.#unsynced || this.#fd === undefined) return;
      // Cleared first: a line appended while the flush runs marks the log unsynced again.
      this.#unsynced = false;
      try {
        await datasync(this.#fd);
      } catch (error) {
        this.#unsynced = true;
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.#enqueue(async () => {
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = undefined;
    });
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

const datasync = promisify(fdatasync);

function parseEntry(line: string): CheckpointEntry | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const files = (list: unknown) => Array.isArray(list) && list.every((f) => typeof f?.path === 'string' && isFileState(f.before) && isFileState(f.after));
  switch (value.t) {
    case 'prior':
    case 'wrote':
      return Number.isInteger(value.turn) && typeof value.path === 'string' && isFileState(value.state) ? (value as unknown as CheckpointEntry) : undefined;
    case 'rewind':
      return Number.isInteger(value.id) && Number.isInteger(value.toTurn) && files(value.files) ? (value as unknown as CheckpointEntry) : undefined;
    case 'redo':
      return Number.isInteger(value.of) && files(value.files) ? (value as unknown as CheckpointEntry) : undefined;
    default:
      return undefined;
  }
}
