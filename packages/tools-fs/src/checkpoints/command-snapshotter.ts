import { lstatSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Logger } from '@weir/core';
import type { Workspace } from '../confinement/workspace.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import { readHeldFileSync } from '../walking/fd-directory.js';
import { walkFiles } from '../walking/walk-files.js';
import type { BlobStore } from './blob-store.js';
import type { CheckpointRecorder } from './checkpoint-recorder.js';
import type { CommandSnapshots } from './checkpoints-plugin.js';
import { ABSENT, type FileState } from './file-state.js';
import { readFileState } from './read-file-state.js';

/** Bounds of the workspace snapshot around shell commands. */
export interface ShellCheckpointOptions {
  /** Files larger than this are left out of the snapshot (and reported). Default 4 MiB. */
  readonly maxFileBytes?: number;
  /** Most files one snapshot looks at; past it the rest is left out (and reported). Default 50,000. */
  readonly maxFiles?: number;
}

/** What the snapshot last knew of a file: how it looked (to tell a change cheaply) and its state, if kept. */
interface Seen {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  /** `undefined` when the file is over the size bound: not kept, so not restorable. */
  readonly state: FileState | undefined;
  /** Kept because the tools wrote it, not found by a walk yet (the walk may leave it out). */
  readonly tentative?: boolean;
}

const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_FILES = 50_000;

/**
 * Changes made within this long before a command started (by its wall clock) are taken as the
 * command's: a file's change time is the kernel's coarse clock (a tick behind at most), so a
 * command's own change never looks older than the command. On a file system that keeps whole
 * seconds (every change time the baseline saw ends in .000000000), the wide margin.
 */
const START_MARGIN_NS = 50_000_000n;
const COARSE_START_MARGIN_NS = 2_000_000_000n;

/**
 * The workspace around a command that may write, with one walk per command. The first command of
 * a process walks the workspace before it runs and keeps every file the walk includes
 * (`.gitignore`d files, `.git` and `node_modules` left out, links never followed): the baseline.
 * After each command one walk compares every file with the baseline by size, modification and
 * change time and inode; a file that differs and whose change time is after the command started
 * was changed by the command (its prior state, from the baseline, joins the turn's checkpoint);
 * one that differs but changed before the command started was changed by someone else, and only
 * becomes the new baseline. Files the tools wrote or a rewind set since the last walk (`touched`)
 * are kept again before the next command, so their prior state is what the tool wrote. A file
 * gone since the baseline is taken as deleted by the command.
 */
export class CommandSnapshotter implements CommandSnapshots {
  readonly #workspace: Workspace;
  readonly #blobs: BlobStore;
  readonly #recorder: CheckpointRecorder;
  readonly #logger: Logger;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #seen = new Map<string, Seen>();
  /** Paths written by the tools (or a rewind) since the last walk: kept again before the next command. */
  readonly #touched = new Set<string>();
  #primed = false;
  #marginNs = COARSE_START_MARGIN_NS;
  /** When the command being snapshotted started, less the margin, in ns of the wall clock. */
  #startNs = 0n;
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
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    if (!(Number.isInteger(this.#maxFileBytes) && this.#maxFileBytes > 0)) throw new TypeError('checkpoints: shell.maxFileBytes must be a positive integer.');
    if (!(Number.isInteger(this.#maxFiles) && this.#maxFiles > 0)) throw new TypeError('checkpoints: shell.maxFiles must be a positive integer.');
  }

  /** Paths the tools wrote or a rewind set: their state is taken again before the next command. */
  touched(paths: readonly string[]): void {
    if (this.#primed) for (const path of paths) this.#touched.add(path);
  }

  async before(): Promise<void> {
    if (!this.#primed) {
      let fine = false;
      await this.#scan(
        async (path, now) => {
          if (now.ctimeNs % 1_000_000_000n !== 0n) fine = true;
          this.#seen.set(path, await this.#keep(path, now));
        },
        (path) => this.#seen.delete(path),
      );
      this.#marginNs = fine ? START_MARGIN_NS : COARSE_START_MARGIN_NS;
      this.#primed = true;
      this.#touched.clear();
    } else if (this.#touched.size > 0) {
      for (const path of this.#touched) await this.#rekeep(path);
      this.#touched.clear();
    }
    this.#startNs = BigInt(Date.now()) * 1_000_000n - this.#marginNs;
  }

  async after(turn: number): Promise<void> {
    const startNs = this.#startNs;
    await this.#scan(
      async (path, now, seen) => {
        const kept = await this.#keep(path, now);
        this.#seen.set(path, kept);
        // Changed before the command started: someone else's change, now the baseline.
        if (now.ctimeNs < startNs) return;
        await this.#changed(turn, path, seen === undefined ? ABSENT : seen.state, kept.state);
      },
      async (path, seen) => {
        this.#seen.delete(path);
        // A path the walk never listed and that is still there is one it leaves out (ignored): not deleted.
        if (seen.tentative === true) {
          const located = await this.#workspace.locate(path, 'read');
          if (!located.ok || located.stat !== undefined) return;
        }
        await this.#changed(turn, path, seen.state, ABSENT);
      },
    );
  }

  /**
   * Takes one path's state again (a file the tools wrote or a rewind set), kept in the store. A
   * path the walks never saw is marked tentative: it may be one the walk leaves out (ignored).
   */
  async #rekeep(path: string): Promise<void> {
    const known = this.#seen.get(path);
    const located = await this.#workspace.locate(path, 'read');
    const info = located.ok ? located.stat : undefined;
    if (info === undefined || !info.isFile()) {
      this.#seen.delete(path);
      return;
    }
    const stats = { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino, tentative: known === undefined || known.tentative === true };
    if (info.size > BigInt(this.#maxFileBytes)) {
      this.#seen.set(path, { ...stats, state: undefined });
      return;
    }
    try {
      this.#seen.set(path, { ...stats, state: await readFileState(this.#workspace, this.#blobs, path, true) });
    } catch {
      this.#seen.delete(path);
    }
  }

  async #changed(turn: number, path: string, prior: FileState | undefined, state: FileState | undefined): Promise<void> {
    if (prior === undefined) {
      this.#logger.warn({ path }, `checkpoints: a command changed ${path}, which is over the snapshot's size bound (${this.#maxFileBytes} bytes); a rewind cannot restore it`);
      return;
    }
    await this.#recorder.keepPrior(turn, path, prior);
    if (state !== undefined) await this.#recorder.wrote(turn, path, state);
  }

  /** Reads the file now (when under the bound) into the store. */
  async #keep(path: string, now: Omit<Seen, 'state'> & { readonly bytes: () => Buffer | undefined; readonly mode: number }): Promise<Seen> {
    const { size, mtimeNs, ctimeNs, ino } = now;
    if (size > BigInt(this.#maxFileBytes)) return { size, mtimeNs, ctimeNs, ino, state: undefined };
    const bytes = now.bytes();
    if (bytes === undefined) return { size, mtimeNs, ctimeNs, ino, state: undefined };
    return { size, mtimeNs, ctimeNs, ino, state: { kind: 'file', hash: await this.#blobs.put(bytes), mode: now.mode } };
  }

  /** Walks the workspace: `present` for each file found new or changed since the baseline, `gone` for each one known before and not found. */
  async #scan(
    present: (path: string, now: Omit<Seen, 'state'> & { readonly bytes: () => Buffer | undefined; readonly mode: number }, seen: Seen | undefined) => Promise<void>,
    gone: (path: string, seen: Seen) => unknown,
  ): Promise<void> {
    const found = new Set<string>();
    const overSize: string[] = [];
    let capped = false;
    const deps = { workspace: this.#workspace, limits: { maxDirectoryNames: 100_000, maxCrawlEntries: this.#maxFiles * 4 } } as unknown as FsToolDeps;
    const start = await this.#workspace.locateOrThrow('.', 'list');
    const { incomplete } = await walkFiles(deps, start, { glob: undefined, hidden: true, includeIgnored: false, signal: new AbortController().signal, skip: this.#skip }, async (directory, files) => {
      for (const file of files) {
        if (found.size >= this.#maxFiles) {
          capped = true;
          return;
        }
        let info;
        try {
          info = lstatSync(directory.child(file.name), { bigint: true });
        } catch {
          continue;
        }
        if (!info.isFile()) continue;
        found.add(file.relativePath);
        if (info.size > BigInt(this.#maxFileBytes)) overSize.push(file.relativePath);
        const now = {
          size: info.size,
          mtimeNs: info.mtimeNs,
          ctimeNs: info.ctimeNs,
          ino: info.ino,
          mode: Number(info.mode & 0o777n),
          bytes: () => readHeldFileSync(directory, file.name, this.#maxFileBytes),
        };
        const seen = this.#seen.get(file.relativePath);
        if (seen !== undefined && !changed(seen, now)) {
          if (seen.tentative === true) this.#seen.set(file.relativePath, { ...seen, tentative: false });
          continue;
        }
        await present(file.relativePath, now, seen);
      }
    });
    // A walk that stopped early says nothing of the files it did not reach: none is taken as deleted.
    if (!incomplete && !capped) for (const [path, seen] of [...this.#seen]) if (!found.has(path)) await gone(path, seen);
    if ((capped || incomplete) && !this.lastSkipped.capped) this.#logger.warn({ maxFiles: this.#maxFiles }, `checkpoints: the workspace has more than ${this.#maxFiles} files; commands' changes past them are not checkpointed`);
    if (overSize.length > 0 && this.lastSkipped.overSize.length === 0) this.#logger.warn({ files: overSize.length, maxFileBytes: this.#maxFileBytes }, `checkpoints: ${overSize.length} files are over ${this.#maxFileBytes} bytes and stay out of the shell snapshot`);
    this.lastSkipped = { overSize, capped: capped || incomplete };
  }
}

function changed(seen: Seen, now: Omit<Seen, 'state'>): boolean {
  return seen.size !== now.size || seen.mtimeNs !== now.mtimeNs || seen.ctimeNs !== now.ctimeNs || seen.ino !== now.ino;
}
