import type { BigIntStats } from 'node:fs';
import { lstat, open, readlink, unlink, type FileHandle } from 'node:fs/promises';
import type { PathIntent, PathResolution, Sandbox } from '@weir/core';
import { checkPathSyntax } from './check-path-syntax.js';
import { errnoCode, errnoRefusal, FsError, quote, refusal, type FsRefusal } from '../fs-error.js';
import { locatePhysical, type Located } from './locate-physical.js';
import { assertOpenedInside, assertOpenedInsideSync, changed, openDirectoryBeneath, openRegularFile, syncDirectory, type OpenDirectory } from './open-directory.js';
import type { OpenStrategy } from './held-directory.js';
import { writeAtomically } from './write-atomically.js';
import { canonicalRoot, type WorkspaceRoot } from './workspace-root.js';

/** A regular file inside the workspace, open for reading, and its `fstat`. The caller closes it. */
export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stat: BigIntStats;
}

/** How `Workspace.replaceFile` creates or replaces a file. */
export interface ReplaceOptions {
  /** Create missing parent directories (inside the root only). */
  readonly createParents: boolean;
  /** The new content, given the file being replaced (open, checked) or `undefined` when creating. */
  readonly produce: (existing: OpenedFile | undefined) => Promise<Uint8Array>;
  readonly signal?: AbortSignal;
  /** Permission bits of the new file; default those of the file it replaces (a new one: 0o666 minus the umask). */
  readonly mode?: number;
}

/**
 * The one path validator of tools-fs (docs/reliability.md 1.1 rule 6), provided to the harness as its
 * `Sandbox`: every tool, and every policy that asks `ctx.sandbox`, goes through `locate`, and
 * every file or directory is then opened beneath the canonical root, one no-follow step at a
 * time, and checked again on the descriptor. Methods named `open*` and `replaceFile` throw
 * `FsError`; `resolve` and `locate` never throw.
 */
export class Workspace implements Sandbox {
  readonly #root: WorkspaceRoot;
  readonly strategy: OpenStrategy;

  private constructor(root: WorkspaceRoot, strategy: OpenStrategy) {
    this.#root = root;
    this.strategy = strategy;
  }

  /**
   * Canonicalises `root` once and picks how to open beneath it: through `/proc/self/fd` when the
   * kernel offers it (Linux), by path otherwise. `strategy` forces one (tests use it). Throws when
   * the root is not an existing directory, and on Windows.
   */
  static async create(root: unknown, options: { strategy?: OpenStrategy } = {}): Promise<Workspace> {
    // The validator speaks POSIX paths; on Windows it would refuse every native path, and its
    // Windows leg (drive letters, `\\` separators, junctions) is not written yet. Fail closed.
    if (process.platform === 'win32') throw new Error('fsTools: Windows is not supported yet; see the README ("Platforms").');
    const canonical = await canonicalRoot(root);
    return new Workspace(canonical, options.strategy ?? (await detectStrategy(canonical)));
  }

  /** The canonical workspace root. */
  get root(): string {
    return this.#root.path;
  }

  /** The `Sandbox` seam: `locate` without the file details. Never throws. */
  async resolve(path: string, intent: PathIntent): Promise<PathResolution> {
    const located = await this.locate(path, intent);
    return located.ok ? { ok: true, path: located.path, relativePath: located.relativePath } : located;
  }

  /**
   * Validates `input` for `intent` and locates it physically. `read`: an existing regular file.
   * `list`: an existing directory. `write`: a regular file with a single link, or a name that does
   * not exist yet. Never throws; a refusal says why, naming paths as the model gave them.
   */
  async locate(input: unknown, intent: PathIntent): Promise<Located | FsRefusal> {
    const malformed = checkPathSyntax(input);
    if (malformed) return malformed;
    const path = input as string;
    const display = quote(path);
    if (intent === 'write' && path.endsWith('/')) return refusal('INVALID_PATH', `${display} ends with "/": name a file to write, not a directory.`);
    const located = await locatePhysical(this.#root, path);
    if (!located.ok) return located;
    const { stat } = located;
    if (stat === undefined) {
      if (intent === 'write') return located;
      return refusal('NOT_FOUND', notFoundMessage(path));
    }
    if (intent === 'list') return stat.isDirectory() ? located : refusal('NOT_A_DIRECTORY', `${display} is not a directory.`);
    if (stat.isDirectory()) {
      return refusal('IS_A_DIRECTORY', intent === 'read' ? `${display} is a directory. Use list_dir to see what it contains.` : `${display} is a directory; name a file to write.`);
    }
    if (!stat.isFile()) return refusal('NOT_A_REGULAR_FILE', `${display} is not a regular file (a FIFO, socket or device); it cannot be used.`);
    if (intent === 'write' && stat.nlink > 1n) {
      return refusal('HARD_LINKED', `${display} has ${stat.nlink} hard links; another name for the same file may be outside the workspace, so it is not written. Ask the user to break the link first.`);
    }
    return located;
  }

  /** Validates and locates `input` whatever it is (no intent rule): for describing links. Never throws. */
  async inspect(input: unknown): Promise<Located | FsRefusal> {
    const malformed = checkPathSyntax(input);
    return malformed ?? locatePhysical(this.#root, input as string);
  }

  /** `locate`, throwing its refusal as `FsError`. */
  async locateOrThrow(input: unknown, intent: PathIntent): Promise<Located> {
    const located = await this.locate(input, intent);
    if (!located.ok) throw FsError.from(located);
    return located;
  }

  /**
   * Opens a located regular file for reading: walks to its directory beneath the root, opens it
   * no-follow and non-blocking, and checks that the descriptor is the very file located (same
   * device and inode) and, on Linux, that the kernel places it inside the root. The caller closes
   * the handle. Throws `FsError`.
   */
  async openFile(located: Located, display: string): Promise<OpenedFile> {
    const names = located.relativePath.split('/');
    const leaf = names.pop();
    if (leaf === undefined || located.relativePath === '.') throw new FsError('IS_A_DIRECTORY', `${display} is a directory.`);
    const directory = await openDirectoryBeneath(this.#root, this.strategy, names, display);
    try {
      const file = await openRegularFile(directory, leaf, display);
      try {
        if (!sameFile(file.stat, located.stat)) throw changed(display);
        await assertOpenedInside(this.#root, file.handle, this.strategy, display);
        return file;
      } catch (error) {
        await file.handle.close();
        throw error;
      }
    } finally {
      await directory.close();
    }
  }

  /**
   * On Linux, throws `FsError('PATH_CHANGED')` unless the kernel places the open descriptor inside
   * the root (a no-op for the `path` strategy). For walks that open children of a held directory.
   */
  async assertInside(handle: FileHandle, display: string): Promise<void> {
    await assertOpenedInside(this.#root, handle, this.strategy, display);
  }

  /** `assertInside` for a plain descriptor, synchronously (the walks). Throws `FsError('PATH_CHANGED')`. */
  assertInsideSync(fd: number, display: string): void {
    assertOpenedInsideSync(this.#root, fd, this.strategy, display);
  }

  /** Opens a located directory beneath the root and checks it is the one located. Throws `FsError`. */
  async openDirectory(located: Located, display: string): Promise<OpenDirectory> {
    const names = located.relativePath === '.' ? [] : located.relativePath.split('/');
    const directory = await openDirectoryBeneath(this.#root, this.strategy, names, display);
    const info = await directory.handle.stat({ bigint: true });
    if (!sameFile(info, located.stat)) {
      await directory.close();
      throw changed(display);
    }
    return directory;
  }

  /**
   * Creates or atomically replaces a located file (intent `write`): walks to its directory beneath
   * the root (creating missing parents there when asked, never elsewhere: `locate` refused any
   * outside ancestor first), re-checks the file on its descriptor (regular, one link, the one
   * located), writes the content `produce` returns, and renames it into place unless the file
   * changed meanwhile. Throws `FsError`.
   */
  async replaceFile(located: Located, display: string, options: ReplaceOptions): Promise<{ readonly created: boolean; readonly bytes: number; readonly mode: number }> {
    const names = located.relativePath.split('/');
    const leaf = names.pop();
    if (leaf === undefined || located.relativePath === '.') throw new FsError('IS_A_DIRECTORY', `${display} is a directory; name a file to write.`);
    if (located.missing > 1 && !options.createParents) {
      throw new FsError('NOT_FOUND', `The directory of ${display} does not exist.`);
    }
    const directory = await openDirectoryBeneath(this.#root, this.strategy, names, display, { create: options.createParents && located.missing > 1 });
    try {
      const existing = await openIfPresent(directory, leaf, display);
      try {
        if (existing === undefined ? located.stat !== undefined : !sameFile(existing.stat, located.stat)) throw changed(display);
        if (existing !== undefined) {
          if (existing.stat.nlink > 1n) throw new FsError('HARD_LINKED', `${display} has ${existing.stat.nlink} hard links; it is not written.`);
          await assertOpenedInside(this.#root, existing.handle, this.strategy, display);
        }
        const data = await options.produce(existing);
        const mode = await writeAtomically(directory, leaf, data, {
          display,
          mode: options.mode ?? (existing === undefined ? undefined : Number(existing.stat.mode & 0o777n)),
          beforeRename: async () => {
            options.signal?.throwIfAborted();
            await assertUnchanged(directory, leaf, existing?.stat, display);
          },
        });
        return { created: existing === undefined, bytes: data.byteLength, mode };
      } finally {
        await existing?.handle.close();
      }
    } finally {
      await directory.close();
    }
  }

  /**
   * Removes a located file (intent `write`): walks to its directory beneath the root, opens the
   * file no-follow, checks it is the one located and lets `check` look at it (it throws to keep
   * the file), unlinks the name unless it changed meanwhile, and syncs the directory. For rewinds.
   * Throws `FsError`.
   */
  async removeFile(located: Located, display: string, check: (existing: OpenedFile) => Promise<void>): Promise<void> {
    const names = located.relativePath.split('/');
    const leaf = names.pop();
    if (leaf === undefined || located.relativePath === '.') throw new FsError('IS_A_DIRECTORY', `${display} is a directory.`);
    const directory = await openDirectoryBeneath(this.#root, this.strategy, names, display);
    try {
      const existing = await openRegularFile(directory, leaf, display);
      try {
        if (!sameFile(existing.stat, located.stat)) throw changed(display);
        await assertOpenedInside(this.#root, existing.handle, this.strategy, display);
        await check(existing);
        await assertUnchanged(directory, leaf, existing.stat, display);
        await unlink(directory.child(leaf)).catch((error: unknown) => {
          throw FsError.from(errnoRefusal(error, display));
        });
      } finally {
        await existing.handle.close();
      }
      await syncDirectory(directory.handle);
    } finally {
      await directory.close();
    }
  }
}

/** Same device and inode as located; a file located as missing matches nothing. */
function sameFile(actual: BigIntStats, expected: BigIntStats | undefined): boolean {
  return expected !== undefined && actual.dev === expected.dev && actual.ino === expected.ino;
}

async function openIfPresent(directory: OpenDirectory, name: string, display: string): Promise<OpenedFile | undefined> {
  try {
    return await openRegularFile(directory, name, display);
  } catch (error) {
    if (error instanceof FsError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

// The file must still be the one read (same inode, size and modification time), or still absent.
async function assertUnchanged(directory: OpenDirectory, name: string, before: BigIntStats | undefined, display: string): Promise<void> {
  let now: BigIntStats | undefined;
  try {
    now = await lstat(directory.child(name), { bigint: true });
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const same =
    before === undefined
      ? now === undefined
      : now !== undefined && now.dev === before.dev && now.ino === before.ino && now.size === before.size && now.mtimeNs === before.mtimeNs;
  if (!same) throw new FsError('PATH_CHANGED', `${display} was changed by something outside this harness while it was being written (this harness's own writes to one file run one after the other); nothing was written. Read it again and retry.`);
}

function notFoundMessage(path: string): string {
  const literal = /[$%]/.test(path) ? ' Paths are taken literally: "$VAR", "%VAR%" and "%2F" are not expanded.' : '';
  return `${quote(path)} does not exist.${literal} Use list_dir or find_files to see what exists.`;
}

// Linux offers /proc/self/fd/N as a handle on an open directory; check it answers for the root.
async function detectStrategy(root: WorkspaceRoot): Promise<OpenStrategy> {
  if (process.platform !== 'linux') return 'path';
  let handle: FileHandle | undefined;
  try {
    handle = await open(root.path, 'r');
    const where = await readlink(`/proc/self/fd/${handle.fd}`);
    const through = await lstat(`/proc/self/fd/${handle.fd}/.`, { bigint: true });
    return where === root.path && through.ino === root.ino && through.dev === root.dev ? 'proc' : 'path';
  } catch {
    // No /proc (a minimal container): fall back to opening by path, with its documented window.
    return 'path';
  } finally {
    await handle?.close();
  }
}
