import { lstatSync } from 'node:fs';
import type { Logger } from '@weir/core';
import type { Workspace } from '../confinement/workspace.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import { readHeldFileSync } from '../walking/fd-directory.js';
import { walkFiles } from '../walking/walk-files.js';
import type { BlobStore } from './blob-store.js';
import type { CheckpointRecorder } from './checkpoint-recorder.js';
import type { CommandSnapshots } from './checkpoints-plugin.js';
import { ABSENT, type FileState } from './file-state.js';

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
}

const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_FILES = 50_000;

/**
 * The workspace around a command that may write: before it, every file the walk includes
 * (`.gitignore`d files, `.git` and `node_modules` left out, links never followed) is compared with
 * what the snapshot last knew by size, times and inode, and only what changed since is copied into
 * the blob store; after it, the same comparison finds what the command created, changed or
 * deleted, and each such file's prior state joins the turn's checkpoint. So a command costs two
 * stat walks, and copies only what changed; the first command of a process copies everything once.
 */
export class CommandSnapshotter implements CommandSnapshots {
  readonly #workspace: Workspace;
  readonly #blobs: BlobStore;
  readonly #recorder: CheckpointRecorder;
  readonly #logger: Logger;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #seen = new Map<string, Seen>();
  /** What the last walk left out: files over the bound, and whether the file cap was reached. */
  lastSkipped: { readonly overSize: readonly string[]; readonly capped: boolean } = { overSize: [], capped: false };

  constructor(workspace: Workspace, blobs: BlobStore, recorder: CheckpointRecorder, options: ShellCheckpointOptions, logger: Logger) {
    this.#workspace = workspace;
    this.#blobs = blobs;
    this.#recorder = recorder;
    this.#logger = logger;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    if (!(Number.isInteger(this.#maxFileBytes) && this.#maxFileBytes > 0)) throw new TypeError('checkpoints: shell.maxFileBytes must be a positive integer.');
    if (!(Number.isInteger(this.#maxFiles) && this.#maxFiles > 0)) throw new TypeError('checkpoints: shell.maxFiles must be a positive integer.');
  }

  async before(): Promise<void> {
    await this.#scan(async (path, now, seen) => {
      if (seen === undefined || changed(seen, now)) this.#seen.set(path, await this.#keep(path, now));
    }, (path) => this.#seen.delete(path));
  }

  async after(turn: number): Promise<void> {
    await this.#scan(
      async (path, now, seen) => {
        if (seen !== undefined && !changed(seen, now)) return;
        const kept = await this.#keep(path, now);
        this.#seen.set(path, kept);
        await this.#changed(turn, path, seen === undefined ? ABSENT : seen.state, kept.state);
      },
      async (path, seen) => {
        this.#seen.delete(path);
        await this.#changed(turn, path, seen.state, ABSENT);
      },
    );
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

  /** Walks the workspace: `present` for each file found, `gone` for each one known before and not found. */
  async #scan(
    present: (path: string, now: Omit<Seen, 'state'> & { readonly bytes: () => Buffer | undefined; readonly mode: number }, seen: Seen | undefined) => Promise<void>,
    gone: (path: string, seen: Seen) => unknown,
  ): Promise<void> {
    const found = new Set<string>();
    const overSize: string[] = [];
    let capped = false;
    const deps = { workspace: this.#workspace, limits: { maxDirectoryNames: 100_000, maxCrawlEntries: this.#maxFiles * 4 } } as unknown as FsToolDeps;
    const start = await this.#workspace.locateOrThrow('.', 'list');
    const { incomplete } = await walkFiles(deps, start, { glob: undefined, hidden: true, includeIgnored: false, signal: new AbortController().signal }, async (directory, files) => {
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
        await present(file.relativePath, now, this.#seen.get(file.relativePath));
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
