import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';

/** An open file, as far as the session store needs one. */
export interface SessionFile {
  /**
   * Writes `data` with exactly one `write(2)` at the end of a file opened with `O_APPEND` (at the
   * current position otherwise). Resolves to the number of bytes written, which may be short; rejects
   * with the system error (`ENOSPC`, `EIO`...).
   */
  write(data: Uint8Array): Promise<number>;
  /** The whole content, read from offset 0 whatever the file position. */
  readAll(): Promise<Uint8Array>;
  /** `fdatasync(2)`: the data and the size are on stable storage when it resolves. */
  datasync(): Promise<void>;
  /** `ftruncate(2)`. */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file operations the file session store uses, injectable so tests can make a write or a sync
 * fail (a full disk, an I/O error) or simulate a power cut. Errors are the system errors, with
 * `code` (`ENOENT`, `EEXIST`, `ENOSPC`...).
 */
export interface SessionFileSystem {
  /** `flags` are `fs.constants` `O_*` bits. */
  open(path: string, flags: number, mode?: number): Promise<SessionFile>;
  readFile(path: string): Promise<Uint8Array>;
  /** Entry names of a directory. */
  readdir(path: string): Promise<string[]>;
  /** `mkdir -p`; resolves to the first directory it created, or `undefined` when all existed. */
  mkdir(path: string): Promise<string | undefined>;
  /** `link(2)`: fails with `EEXIST` when `newPath` exists, which makes it an exclusive create. */
  link(existingPath: string, newPath: string): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<{ readonly size: number; readonly mtimeMs: number }>;
  /** Sets a file's modification time to now (`utimes(2)`); rejects with `ENOENT` when it does not exist. */
  touch(path: string): Promise<void>;
  /** fsyncs a directory, so the names created or removed in it are durable. */
  syncDirectory(path: string): Promise<void>;
}

export const { O_RDONLY, O_RDWR, O_WRONLY, O_APPEND, O_CREAT, O_EXCL } = constants;

/** The real file system, through `node:fs/promises`. */
export const nodeSessionFileSystem: SessionFileSystem = {
  async open(path, flags, mode) {
    return wrapHandle(await fsp.open(path, flags, mode));
  },
  readFile: (path) => fsp.readFile(path),
  readdir: (path) => fsp.readdir(path),
  mkdir: (path) => fsp.mkdir(path, { recursive: true }),
  link: (existingPath, newPath) => fsp.link(existingPath, newPath),
  rename: (oldPath, newPath) => fsp.rename(oldPath, newPath),
  unlink: (path) => fsp.unlink(path),
  async stat(path) {
    const stats = await fsp.stat(path);
    return { size: stats.size, mtimeMs: stats.mtimeMs };
  },
  async touch(path) {
    const now = new Date();
    await fsp.utimes(path, now, now);
  },
  async syncDirectory(path) {
    const handle = await fsp.open(path, O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

function wrapHandle(handle: fsp.FileHandle): SessionFile {
  return {
    // FileHandle.write is one write(2); position null means "the current position" (the end, with O_APPEND).
    write: async (data) => (await handle.write(data, 0, data.byteLength, null)).bytesWritten,
    async readAll() {
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === size ? buffer : buffer.subarray(0, filled);
    },
    datasync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
    close: () => handle.close(),
  };
}
