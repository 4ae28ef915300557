import { closeSync, constants, fstatSync, opendirSync, openSync, readSync } from 'node:fs';
import { errnoCode } from '../fs-error.js';
import { childPath, type HeldDirectory, type OpenStrategy } from '../confinement/held-directory.js';
import type { DirectoryEntry, DirectoryListing, EntryKind } from './directory-entry.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/**
 * A directory a walk opened with a plain descriptor and synchronous calls: a walk of 50,000 files
 * pays for each promise-based step many times over (each is a trip to the thread pool, slow on a
 * busy machine), while one no-follow `open(2)` beneath the held parent costs microseconds.
 */
export class FdDirectory implements HeldDirectory {
  constructor(
    readonly fd: number,
    readonly path: string,
    readonly strategy: OpenStrategy,
  ) {}

  child(name: string): string {
    return childPath(this, name);
  }

  get listingPath(): string {
    return this.strategy === 'proc' ? `/proc/self/fd/${this.fd}` : this.path;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * Opens the subdirectory `name` of `parent` without following a link (`O_NOFOLLOW`, `O_DIRECTORY`).
 * `undefined` when it is now a link, a file, gone or unreadable: a walk skips it, never follows
 * it. Throws what is not a system error.
 */
export function openSubdirectorySync(parent: HeldDirectory, name: string): FdDirectory | undefined {
  let fd: number;
  try {
    fd = openSync(parent.child(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if (errnoCode(error) !== undefined) return undefined;
    throw error;
  }
  return new FdDirectory(fd, parent.path === '/' ? `/${name}` : `${parent.path}/${name}`, parent.strategy);
}

/**
 * Reads at most `maxNames` names of a held directory, synchronously but streaming (a directory of a
 * million entries costs `maxNames` entries of memory), sorted like `readDirectory`.
 */
export function readDirectorySync(directory: HeldDirectory, maxNames: number, signal?: AbortSignal): DirectoryListing {
  const entries: DirectoryEntry[] = [];
  let complete = true;
  const dir = opendirSync(directory.listingPath, { bufferSize: 256 });
  try {
    for (let dirent = dir.readSync(); dirent !== null; dirent = dir.readSync()) {
      if (entries.length >= maxNames) {
        complete = false;
        break;
      }
      signal?.throwIfAborted();
      const kind: EntryKind = dirent.isSymbolicLink() ? 'symlink' : dirent.isDirectory() ? 'directory' : dirent.isFile() ? 'file' : 'other';
      entries.push({ name: dirent.name, kind });
    }
  } finally {
    dir.closeSync();
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, complete };
}

/**
 * The bytes of the regular file `name` in `directory`, opened no-follow and non-blocking (a FIFO
 * cannot hang the call) and checked on its descriptor; `undefined` when it is not a regular file,
 * is over `maxBytes`, or cannot be opened. Never follows a link. Throws nothing.
 */
export function readHeldFileSync(directory: HeldDirectory, name: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(directory.child(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < info.size) {
      const read = readSync(fd, buffer, filled, info.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
