import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { O_CREAT, O_EXCL, O_WRONLY, type SessionFileSystem } from './session-file-system.js';

/**
 * Replaces (or creates) `path` with `bytes`, all or nothing, durably: a unique temp file (O_EXCL)
 * in the same directory, fdatasync, rename(2) over `path`, fsync of the directory. The file at
 * `path` afterwards is a new inode: a process still holding the old one open writes to nothing
 * anybody reads. Rejects with the system error, leaving no temp file behind when it can.
 */
export async function replaceFileDurably(fs: SessionFileSystem, path: string, bytes: Uint8Array): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const file = await fs.open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
  try {
    try {
      let written = 0;
      while (written < bytes.byteLength) {
        const n = await file.write(bytes.subarray(written));
        if (n <= 0) throw new Error(`no progress writing ${temp}`);
        written += n;
      }
      await file.datasync();
    } finally {
      await file.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await fs.syncDirectory(dirname(path));
}
