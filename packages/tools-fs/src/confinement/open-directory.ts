import { constants, readlinkSync, type BigIntStats } from 'node:fs';
import { mkdir, open, readlink, type FileHandle } from 'node:fs/promises';
import { relativeInside } from './containment.js';
import { errnoCode, errnoRefusal, FsError } from '../fs-error.js';
import { childPath, type HeldDirectory, type OpenStrategy } from './held-directory.js';
import type { WorkspaceRoot } from './workspace-root.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/**
 * A directory inside the workspace, held open. Every step down opens one name with `O_NOFOLLOW`,
 * so a walk never follows a symbolic link: the canonical path it walks has none, and one that
 * appears meanwhile makes the walk fail with `PATH_CHANGED` instead of leading outside.
 */
export class OpenDirectory implements HeldDirectory {
  constructor(
    readonly handle: FileHandle,
    /** The canonical absolute path this directory had when it was validated. */
    readonly path: string,
    readonly strategy: OpenStrategy,
  ) {}

  /** The descriptor the handle holds. */
  get fd(): number {
    return this.handle.fd;
  }

  /** A path naming `name` in exactly this directory (see `OpenStrategy`). Pure. */
  child(name: string): string {
    return childPath(this, name);
  }

  /** The path `readdir` and `opendir` should read: this very directory. Pure. */
  get listingPath(): string {
    return this.strategy === 'proc' ? `/proc/self/fd/${this.handle.fd}` : this.path;
  }

  /**
   * Opens the subdirectory `name` without following a link, creating it first when `create` is
   * set and it is missing. Throws `FsError` (`PATH_CHANGED` when it is now a link or a file).
   */
  async openChild(name: string, display: string, options: { create?: boolean } = {}): Promise<OpenDirectory> {
    const target = this.child(name);
    const childPath = this.path === '/' ? `/${name}` : `${this.path}/${name}`;
    try {
      return new OpenDirectory(await openDirectoryNoFollow(target), childPath, this.strategy);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT' || options.create !== true) throw walkError(error, display);
    }
    try {
      await mkdir(target, 0o777);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw walkError(error, display);
    }
    await syncDirectory(this.handle);
    try {
      return new OpenDirectory(await openDirectoryNoFollow(target), childPath, this.strategy);
    } catch (error) {
      throw walkError(error, display);
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * Opens the workspace root and checks it is still the directory canonicalised at setup.
 * Throws `FsError('PATH_CHANGED')` when the root was replaced.
 */
export async function openRoot(root: WorkspaceRoot, strategy: OpenStrategy): Promise<OpenDirectory> {
  let handle: FileHandle;
  try {
    handle = await open(root.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    throw walkError(error, 'The workspace root');
  }
  const info = await handle.stat({ bigint: true });
  if (info.dev !== root.dev || info.ino !== root.ino) {
    await handle.close();
    throw new FsError('PATH_CHANGED', 'The workspace root was replaced after the tools were set up; nothing was read or written.');
  }
  return new OpenDirectory(handle, root.path, strategy);
}

/**
 * Walks from the root down `names` (canonical components, no `.`, `..` or links), one
 * no-follow open per step, creating missing directories when `create` is set. The caller closes
 * the result. Throws `FsError`.
 */
export async function openDirectoryBeneath(
  root: WorkspaceRoot,
  strategy: OpenStrategy,
  names: readonly string[],
  display: string,
  options: { create?: boolean } = {},
): Promise<OpenDirectory> {
  let current = await openRoot(root, strategy);
  try {
    for (const name of names) {
      const next = await current.openChild(name, display, options);
      await current.close();
      current = next;
    }
    await assertOpenedInside(root, current.handle, strategy, display);
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}

/**
 * Opens the file `name` in `directory` for reading: `O_NOFOLLOW` (a link is refused, not
 * followed), `O_NONBLOCK` (a FIFO cannot hang the call), `O_NOCTTY`; then `fstat`s the
 * descriptor and requires a regular file. Throws `FsError`; closes what it opened on failure.
 */
export async function openRegularFile(directory: HeldDirectory, name: string, display: string): Promise<{ handle: FileHandle; stat: BigIntStats }> {
  let handle: FileHandle;
  try {
    handle = await open(directory.child(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP') throw changed(display);
    throw FsError.from(errnoRefusal(error, display));
  }
  try {
    const info = await handle.stat({ bigint: true });
    if (info.isDirectory()) throw new FsError('IS_A_DIRECTORY', `${display} is a directory. Use list_dir to see what it contains.`);
    if (!info.isFile()) throw new FsError('NOT_A_REGULAR_FILE', `${display} is not a regular file (a FIFO, socket or device); it cannot be used.`);
    return { handle, stat: info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * On Linux (`proc`), asks the kernel where the descriptor really is (`readlink
 * /proc/self/fd/N`) and throws `FsError('PATH_CHANGED')` unless it is inside the root. Catches
 * an intermediate directory swapped for a link on any code path that opened by name. A no-op for
 * `path`, where no such question can be asked.
 */
export async function assertOpenedInside(root: WorkspaceRoot, handle: FileHandle, strategy: OpenStrategy, display: string): Promise<void> {
  if (strategy !== 'proc') return;
  const where = await readlink(`/proc/self/fd/${handle.fd}`);
  if (relativeInside(root.path, where) === undefined) throw changed(display);
}

/** `assertOpenedInside` for a plain descriptor, synchronously (the walks). */
export function assertOpenedInsideSync(root: WorkspaceRoot, fd: number, strategy: OpenStrategy, display: string): void {
  if (strategy !== 'proc') return;
  const where = readlinkSync(`/proc/self/fd/${fd}`);
  if (relativeInside(root.path, where) === undefined) throw changed(display);
}

/** Flushes a directory's entries to disk; file systems that cannot (EINVAL) are skipped. */
export async function syncDirectory(handle: FileHandle): Promise<void> {
  try {
    await handle.sync();
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EBADF') throw error;
  }
}

/** `FsError('PATH_CHANGED')`: a check and its use disagreed. */
export function changed(display: string): FsError {
  return new FsError('PATH_CHANGED', `${display} changed while it was being opened (a file or directory was replaced, maybe by a symbolic link); nothing was read or written. Try again.`);
}

function openDirectoryNoFollow(target: string): Promise<FileHandle> {
  return open(target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

function walkError(error: unknown, display: string): FsError {
  const code = errnoCode(error);
  // The canonical path had no link and only directories: a link or a file there now is a swap.
  if (code === 'ELOOP' || code === 'ENOTDIR') return changed(display);
  return FsError.from(errnoRefusal(error, display));
}
