import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { O_CREAT, O_EXCL, O_WRONLY, type SessionFileSystem } from './session-file-system.js';

/**
 * Creates `path` with `bytes`, all or nothing, durably: write a unique temp file (O_EXCL) in the same
 * directory, fdatasync it, hard-link it to `path`, remove the temp name, fsync the directory.
 * link(2) never replaces: rejects with an `EEXIST` error when `path` exists. Rejects with the system
 * error on any other failure, leaving no temp file behind when it can.
 */
export async function writeFileDurably(fs: SessionFileSystem, path: string, bytes: Uint8Array): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const file = await fs.open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
  try {
    try {
      let written = 0;
      // A temp file has no readers yet, so a short write may simply be continued.
      while (written < bytes.byteLength) {
        const n = await file.write(bytes.subarray(written));
        if (n <= 0) throw new Error(`no progress writing ${temp}`);
        written += n;
      }
      await file.datasync();
    } finally {
      await file.close();
    }
    await fs.link(temp, path);
  } finally {
    await fs.unlink(temp).catch(() => undefined);
  }
  await fs.syncDirectory(dirname(path));
}
