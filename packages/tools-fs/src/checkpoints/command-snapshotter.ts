import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
import type { Logger } from '@weir/core';
import type { Workspace } from '../confinement/workspace.js';
import type { BlobStore } from './blob-store.js';
import type { CheckpointRecorder } from './checkpoint-recorder.js';
import type { CommandSnapshots } from './checkpoints-plugin.js';
import { ABSENT, sameState, type FileState } from './file-state.js';
import { lstatQuietly, sameStamp, stampOf, type FileStamp } from './file-stamp.js';
import { readFileState } from './read-file-state.js';
import { readShellIndex, writeShellIndex, type IndexedFile } from './shell-index.js';
import { SnapshotWalker } from './snapshot-walker.js';

/** Bounds of the workspace snapshot around shell commands. */
export interface ShellCheckpointOptions {
  /** Files larger than this are left out of the snapshot (and reported). Default 4 MiB. */
  readonly maxFileBytes?: number;
  /** Most files one snapshot looks at; past it the rest is left out (and reported). Default 50,000. */
  readonly maxFiles?: number;
}

/** What the snapshot last knew of a file: its stamp (to tell a change cheaply) and its state, if kept. */
interface Seen extends IndexedFile {
  /** Kept because the tools wrote it, not found by a walk yet (the walk may leave it out). */
  readonly tentative: boolean;
  /** The last walk that found it (a mark, so that telling the files gone needs no set of the found). */
  walk: number;
}

/** A `Seen`, always built here: one shape for all of them keeps the walk's property reads monomorphic. */
function seenOf(stamp: FileStamp, state: IndexedFile['state'], racy: boolean, tentative: boolean): Seen {
  return { size: stamp.size, mtimeMs: stamp.mtimeMs, ctimeMs: stamp.ctimeMs, ino: stamp.ino, state, racy, tentative, walk: 0 };
}

/** A file a walk found new, changed or racy: its stamp now, its mode, and a read of its bytes. */
interface Found extends FileStamp {
  readonly mode: number;
  readonly read: () => Buffer | undefined;
}

const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_FILES = 50_000;

/**
 * Changes made within this long before a command started (by its wall clock) are taken as the
 * command's: a file's change time is the kernel's coarse clock (a tick behind at most), so a
 * command's own change never looks older than the command. On a file system that keeps whole
 * seconds (no change time seen with a fraction of a second), the wide margin. The same margin
 * marks a file read too soon after its change time as racy (see `IndexedFile.racy`).
 */
const START_MARGIN_MS = 50;
const COARSE_START_MARGIN_MS = 2_000;

/**
 * The workspace around a command that may write, with one stat walk per command. The baseline (every
 * file the walk includes, kept in the blob store: `.gitignore`d files, `.git` and `node_modules` left
 * out, links never followed) is taken in the background from `start()` on (the session's opening),
 * a slice of files at a time; a process that resumes a session starts from the index the last one
 * left (`shell-index.json`), so its baseline reads only the files whose stamp changed. The first
 * command waits for what is left of the baseline, then walks once more to take what changed since
 * the baseline passed it: its prior state is the state just before it. After each command one walk
 * compares every file's stamp (size, modification and change time, inode) with what the snapshot
 * knew; a file that differs is read, and if its change time is after the command started it was
 * changed by the command (its prior state joins the turn's checkpoint); one that changed before the
 * command started was changed by someone else, and only becomes the new baseline. Files the tools
 * wrote or a rewind set since the last walk (`touched`) are kept again before the next command, so
 * their prior state is what the tool wrote. A file gone since the last walk is taken as deleted by
 * the command.
 */
export class CommandSnapshotter implements CommandSnapshots {
  readonly #workspace: Workspace;
  readonly #blobs: BlobStore;
  readonly #recorder: CheckpointRecorder;
  readonly #logger: Logger;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #indexPath: string;
  readonly #seen = new Map<string, Seen>();
  readonly #walker: SnapshotWalker;
  /** Paths written by the tools (or a rewind) since the last walk: kept again before the next command. */
  readonly #touched = new Set<string>();
  /** Aborts the background baseline (at `close`). */
  readonly #stop = new AbortController();
  /** The background baseline; never rejects. */
  #baseline: Promise<void> | undefined;
  /** The index written, after it; never rejects. */
  #saved: Promise<void> = Promise.resolve();
  /** Set when a command waits for the baseline: it stops letting the event loop run. */
  #hurry = false;
  /** True once the first command's walk before it ran. */
  #primed = false;
  /** How many walks ran (each marks the files it finds). */
  #walks = 0;
  /** True once a change time with a fraction of a second was seen. */
  #fine = false;
  /** When the command being snapshotted started, less the margin, in ms of the wall clock. */
  #startMs = 0;
  /** What the last walk left out: files over the bound, and whether the file cap was reached. */
  lastSkipped: { readonly overSize: readonly string[]; readonly capped: boolean } = { overSize: [], capped: false };

  /** weir's own folder and the checkpoints' (when inside the root): weir writes them during a command, commands cannot (`.weir` is bound read-only in the shell's sandbox). */
  readonly #skip: ReadonlySet<string>;

  constructor(workspace: Workspace, blobs: BlobStore, recorder: CheckpointRecorder, options: ShellCheckpointOptions, logger: Logger, checkpointsDir: string) {
    this.#workspace = workspace;
    const inside = relative(workspace.root, resolve(checkpointsDir));
    this.#skip = new Set(['.weir', ...(inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? [inside.split(sep).join('/')] : [])]);
    this.#blobs = blobs;
    this.#recorder = recorder;
    this.#logger = logger;
    this.#indexPath = join(checkpointsDir, 'shell-index.json');
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    if (!(Number.isInteger(this.#maxFileBytes) && this.#maxFileBytes > 0)) throw new TypeError('checkpoints: shell.maxFileBytes must be a positive integer.');
    if (!(Number.isInteger(this.#maxFiles) && this.#maxFiles > 0)) throw new TypeError('checkpoints: shell.maxFiles must be a positive integer.');
    this.#walker = new SnapshotWalker(workspace, { maxDirectoryNames: 100_000, maxCrawlEntries: this.#maxFiles * 4 });
  }

  get #marginMs(): number {
    return this.#fine ? START_MARGIN_MS : COARSE_START_MARGIN_MS;
  }

  /** Starts taking the baseline in the background (once; later calls do nothing). Never throws. */
  start(): void {
    if (this.#baseline !== undefined) return;
    this.#baseline = this.#takeBaseline().catch((error: unknown) => {
      if (this.#stop.signal.aborted) return;
      this.#logger.warn({ err: error }, 'checkpoints: the shell snapshot\'s baseline could not be taken in the background; the first command takes it');
    });
  }

  /** Resolves when the background baseline is taken, failed or was stopped; at once when it was never started. Never rejects. */
  baselineTaken(): Promise<void> {
    return this.#baseline ?? Promise.resolve();
  }

  /** Paths the tools wrote or a rewind set: their state is taken again before the next command. */
  touched(paths: readonly string[]): void {
    if (this.#primed) for (const path of paths) this.#touched.add(path);
  }

  async before(): Promise<void> {
    if (!this.#primed) {
      this.#hurry = true;
      this.start();
      await this.#baseline;
      // What changed since the baseline walked past it (everything, had it failed) is taken now:
      // the first command's prior states are the files just before it.
      await this.#refresh(false);
      this.#primed = true;
      this.#touched.clear();
    } else if (this.#touched.size > 0) {
      for (const path of this.#touched) await this.#rekeep(path);
      this.#touched.clear();
    }
    this.#startMs = Date.now() - this.#marginMs;
  }

  async after(turn: number): Promise<void> {
    const startMs = this.#startMs;
    await this.#scan(
      false,
      async (path, now, seen) => {
        const kept = await this.#keep(now);
        this.#seen.set(path, kept);
        // Changed before the command started: someone else's change, now the baseline.
        if (now.ctimeMs < startMs) return;
        // The same bytes and mode (a `touch`, or a racy file read again): nothing to give back.
        if (seen?.state !== undefined && sameState(seen.state, kept.state)) return;
        await this.#changed(turn, path, seen === undefined ? ABSENT : seen.state, kept.state);
      },
      async (path, seen) => {
        this.#seen.delete(path);
        // A path the walk never listed and that is still there is one it leaves out (ignored): not deleted.
        if (seen.tentative) {
          const located = await this.#workspace.locate(path, 'read');
          if (!located.ok || located.stat !== undefined) return;
        }
        await this.#changed(turn, path, seen.state, ABSENT);
      },
    );
  }

  /** Stops the background baseline and writes the index for the next process of the session. Never throws. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#baseline;
    await this.#saved;
    if (this.#seen.size > 0) await this.#save();
  }

  /** The index the last process left, then a walk that keeps every file whose stamp differs from it; then the index written. */
  async #takeBaseline(): Promise<void> {
    const indexed = await readShellIndex(this.#indexPath);
    let checked = 0;
    for (const [path, file] of indexed) {
      if (++checked % 1000 === 0) await this.#pause();
      // A claim whose blob is not in the store is no claim: the file is read again.
      if (file.state === undefined || this.#blobs.has(file.state.hash)) this.#seen.set(path, seenOf(file, file.state, file.racy, false));
    }
    await this.#refresh(true);
    this.#saved = this.#save();
  }

  /** Writes the index (see `writeShellIndex` for when the blobs are synced first). Never throws. */
  async #save(): Promise<void> {
    try {
      await writeShellIndex(this.#indexPath, [...this.#seen].filter(([, seen]) => seen.tentative !== true), this.#blobs);
    } catch (error) {
      this.#logger.warn({ err: error }, 'checkpoints: the shell snapshot\'s index could not be written; the next process of the session reads every file again');
    }
  }

  /** One walk that makes every file found new or changed part of the baseline, and forgets every file gone. */
  async #refresh(background: boolean): Promise<void> {
    await this.#scan(
      background,
      async (path, now) => {
        this.#seen.set(path, await this.#keep(now));
      },
      (path) => this.#seen.delete(path),
    );
  }

  /** Lets the event loop run (the background baseline), unless a command waits. Throws when stopped. */
  async #pause(): Promise<void> {
    if (this.#hurry) return;
    await nextTurnOfTheLoop();
    this.#stop.signal.throwIfAborted();
  }

  /**
   * Takes one path's state again (a file the tools wrote or a rewind set), kept in the store. A
   * path the walks never saw is marked tentative: it may be one the walk leaves out (ignored).
   */
  async #rekeep(path: string): Promise<void> {
    const known = this.#seen.get(path);
    const located = await this.#workspace.locate(path, 'read');
    // The stamp before the read: a change after it makes the next walk read the file again.
    const info = located.ok && located.stat?.isFile() === true ? lstatQuietly(located.path) : undefined;
    if (info === undefined || !info.isFile()) {
      this.#seen.delete(path);
      return;
    }
    const stamp = stampOf(info);
    const tentative = known === undefined || known.tentative;
    if (stamp.size > this.#maxFileBytes) {
      this.#seen.set(path, seenOf(stamp, undefined, false, tentative));
      return;
    }
    const readAt = Date.now();
    let state: FileState;
    try {
      state = await readFileState(this.#workspace, this.#blobs, path, true);
    } catch {
      this.#seen.delete(path);
      return;
    }
    if (state.kind === 'absent') this.#seen.delete(path);
    else this.#seen.set(path, seenOf(stamp, state, this.#isRacy(stamp, readAt), tentative));
  }

  async #changed(turn: number, path: string, prior: FileState | undefined, state: FileState | undefined): Promise<void> {
    if (prior === undefined) {
      this.#logger.warn({ path }, `checkpoints: a command changed ${path}, which is over the snapshot's size bound (${this.#maxFileBytes} bytes); a rewind cannot restore it`);
      return;
    }
    // The snapshot's copies are not synced until a checkpoint names them: now.
    if (prior.kind === 'file') this.#blobs.needDurable(prior.hash);
    if (state?.kind === 'file') this.#blobs.needDurable(state.hash);
    await this.#recorder.keepPrior(turn, path, prior);
    if (state !== undefined) await this.#recorder.wrote(turn, path, state);
  }

  /** Reads the file now (when under the bound) into the store. */
  async #keep(now: Found): Promise<Seen> {
    const stamp: FileStamp = { size: now.size, mtimeMs: now.mtimeMs, ctimeMs: now.ctimeMs, ino: now.ino };
    if (stamp.size > this.#maxFileBytes) return seenOf(stamp, undefined, false, false);
    const racy = this.#isRacy(stamp, Date.now());
    const bytes = now.read();
    if (bytes === undefined) return seenOf(stamp, undefined, false, false);
    return seenOf(stamp, { kind: 'file', hash: await this.#blobs.put(bytes, { durable: false }), mode: now.mode }, racy, false);
  }

  /** Read (from `readAt` on) so soon after its change time that a later write in the same tick of the file clock would leave the stamp as it is. */
  #isRacy(stamp: FileStamp, readAt: number): boolean {
    return readAt - stamp.ctimeMs < this.#marginMs;
  }

  /**
   * Walks the workspace: `present` for each file found new, changed or racy since the snapshot last
   * saw it, `gone` for each one known before and not found. In the `background`, lets the event loop
   * run between slices of files and stops when closed.
   */
  async #scan(background: boolean, present: (path: string, now: Found, seen: Seen | undefined) => Promise<void>, gone: (path: string, seen: Seen) => unknown): Promise<void> {
    const walk = ++this.#walks;
    const known = this.#seen.size;
    let knownFound = 0;
    const overSize: string[] = [];
    const { complete, capped } = await this.#walker.walk({
      skip: this.#skip,
      maxFiles: this.#maxFiles,
      signal: background ? this.#stop.signal : new AbortController().signal,
      marginMs: () => this.#marginMs,
      unchanged: (path, stamp) => {
        const seen = this.#seen.get(path);
        return seen !== undefined && !seen.racy && sameStamp(seen, stamp);
      },
      found: (path, stamp) => {
        let seen = this.#seen.get(path);
        if (seen !== undefined && seen.walk !== walk) {
          if (seen.tentative) this.#seen.set(path, (seen = seenOf(seen, seen.state, seen.racy, false)));
          seen.walk = walk;
          knownFound += 1;
        }
        if (!this.#fine && stamp.ctimeMs % 1000 !== 0) this.#fine = true;
        if (stamp.size > this.#maxFileBytes) overSize.push(path);
      },
      changed: async (path, info, read) => {
        await present(path, { ...stampOf(info), mode: info.mode & 0o777, read: () => read(this.#maxFileBytes) }, this.#seen.get(path));
        const kept = this.#seen.get(path);
        if (kept !== undefined) kept.walk = walk;
      },
      ...(background ? { pause: () => this.#pause() } : {}),
    });
    // A walk that stopped early says nothing of the files it did not reach: none is taken as deleted.
    if (complete && knownFound < known) {
      const missing = [...this.#seen].filter(([, seen]) => seen.walk !== walk);
      for (const [path, seen] of missing) await gone(path, seen);
    }
    if (!complete && !this.lastSkipped.capped) this.#logger.warn({ maxFiles: this.#maxFiles }, `checkpoints: the workspace has more than ${this.#maxFiles} files; commands' changes past them are not checkpointed`);
    if (overSize.length > 0 && this.lastSkipped.overSize.length === 0) this.#logger.warn({ files: overSize.length, maxFileBytes: this.#maxFileBytes }, `checkpoints: ${overSize.length} files are over ${this.#maxFileBytes} bytes and stay out of the shell snapshot`);
    this.lastSkipped = { overSize, capped: capped || !complete };
  }
}
