import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { errnoCode, errnoRefusal, FsError } from '../fs-error.js';
import { syncDirectory, type OpenDirectory } from './open-directory.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
const TEMP_ATTEMPTS = 5;

/** Options of `writeAtomically`. */
export interface AtomicWriteOptions {
  /** The path as the model named it, quoted, for messages. */
  readonly display: string;
  /** Permission bits for the file (those of the file it replaces); default 0o666 minus the umask. */
  readonly mode?: number;
  /** Runs after the data is durable and before the rename: a last check that may throw to cancel. */
  readonly beforeRename?: () => Promise<void>;
}

/**
 * Replaces (or creates) `name` in `directory` atomically and durably (docs/reliability.md 4.1 rule 7):
 * a temporary file created with `O_CREAT | O_EXCL | O_NOFOLLOW` in the same directory, written,
 * `fsync`ed, renamed over `name`, then the directory `fsync`ed. A reader sees the old content or
 * the new, never a mix; a crash leaves at most a stray `.weir-*.tmp` file. The rename replaces a
 * link at `name` instead of writing through it, and breaks any hard link. Returns the file's
 * permission bits. Throws `FsError`; the temporary file is removed on every failure.
 */
export async function writeAtomically(directory: OpenDirectory, name: string, data: Uint8Array, options: AtomicWriteOptions): Promise<number> {
  const { display } = options;
  const { handle, tempName } = await createTemporary(directory, display);
  const tempPath = directory.child(tempName);
  let mode = options.mode;
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      else mode = Number((await handle.stat()).mode & 0o777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await rename(tempPath, directory.child(name));
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    // FsError from a check, or an abort reason: passed on as they are. System errors are translated.
    throw errnoCode(error) === undefined ? error : FsError.from(errnoRefusal(error, display));
  }
  try {
    await syncDirectory(directory.handle);
  } catch (error) {
    // The new content is in place; only its durability across a power cut is unknown.
    throw new FsError('FS_ERROR', `${display} was written, but the directory could not be flushed to disk (${errnoCode(error) ?? 'error'}).`);
  }
  return mode;
}

async function createTemporary(directory: OpenDirectory, display: string): Promise<{ handle: FileHandle; tempName: string }> {
  for (let attempt = 1; ; attempt += 1) {
    // Short and unrelated to the target's name, so it fits NAME_MAX whatever the target is called.
    const tempName = `.weir-${randomBytes(8).toString('hex')}.tmp`;
    try {
      return { handle: await open(directory.child(tempName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666), tempName };
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST' || attempt >= TEMP_ATTEMPTS) throw FsError.from(errnoRefusal(error, display));
    }
  }
}
