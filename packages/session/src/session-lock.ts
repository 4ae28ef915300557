import { randomUUID } from 'node:crypto';
import { HarnessError, type Logger } from '@weir/core';
import { O_CREAT, O_EXCL, O_WRONLY, type SessionFileSystem } from './session-file-system.js';

/** True when a process with this pid exists (a pid we may not signal exists too). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface SessionLockOptions {
  readonly fs: SessionFileSystem;
  readonly logger: Logger;
  readonly processAlive: (pid: number) => boolean;
  /** The pid written into the lock. Default: this process. */
  readonly pid?: number;
  /**
   * Take the lock even from a live holder (an operator who knows the other host is gone). The lock
   * file is replaced in one rename; the holder finds out at its next write (`stillHeld()`). Default: false.
   */
  readonly takeOver?: boolean;
}

/** A held lock. */
export interface SessionLock {
  /** Removes the lock file if it is still ours. Idempotent; never throws. */
  readonly release: () => Promise<void>;
  /** True while the lock file is still the one this holder wrote; false once someone took it over. Rejects with the system error. */
  readonly stillHeld: () => Promise<boolean>;
  /** True when a previous holder's lock (stale, or live with `takeOver`) was replaced: its writes must be fenced off. */
  readonly tookOver: boolean;
}

const ATTEMPTS = 5;

/**
 * Takes the lock file `path` for this process. The lock holds `{"pid","token"}`. It is written to a
 * unique temp file first (created with O_EXCL) and then hard-linked to `path`: link(2) fails if `path`
 * exists, so creation is exclusive, and the lock is never seen without its pid.
 *
 * A lock whose pid is dead (or whose content is unreadable: only a power cut leaves that) is stale
 * and taken over. Throws `HarnessError` `SESSION_LOCKED` when a live process holds it (this one
 * included: one writer per session, even within a process).
 */
export async function acquireSessionLock(path: string, options: SessionLockOptions): Promise<SessionLock> {
  const { fs, logger } = options;
  const pid = options.pid ?? process.pid;
  let staleSeen = false;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const token = randomUUID();
    const content = `${JSON.stringify({ pid, token })}\n`;
    const temp = `${path}.${token}.tmp`;
    const file = await fs.open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    try {
      const bytes = new TextEncoder().encode(content);
      if ((await file.write(bytes)) !== bytes.byteLength) throw new Error(`short write to ${temp}`);
    } finally {
      await file.close();
    }
    try {
      await fs.link(temp, path);
      return heldLock(path, content, fs, logger, staleSeen);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (options.takeOver === true) {
        // rename(2) replaces the holder's lock in one step: there is never a moment without a lock.
        await fs.rename(temp, path);
        logger.warn({ lock: path }, 'session: took the lock over from its holder (takeOver)');
        return heldLock(path, content, fs, logger, true);
      }
    } finally {
      await fs.unlink(temp).catch(() => undefined);
    }

    const held = await readText(fs, path);
    if (held === undefined) continue; // released meanwhile: try again
    const holder = parsePid(held);
    if (holder !== undefined && options.processAlive(holder)) {
      throw new HarnessError(
        'SESSION_LOCKED',
        `The session is open in process ${holder} (lock ${path}). Close it there first; if no such process runs any more, delete the lock file.`,
      );
    }
    // Stale. Move it aside under a unique name, and make sure what moved is what was judged stale.
    const aside = `${path}.stale-${token}`;
    try {
      await fs.rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = await readText(fs, aside);
    if (moved !== held) {
      // Someone else replaced the stale lock in between: put theirs back (link fails if yet another took the name).
      await fs.link(aside, path).catch(() => undefined);
      await fs.unlink(aside).catch(() => undefined);
      continue;
    }
    await fs.unlink(aside).catch(() => undefined);
    staleSeen = true;
    logger.warn({ lock: path, stalePid: holder }, 'session: took over a stale lock');
  }
  throw new HarnessError('SESSION_LOCKED', `Could not take the lock ${path}: other processes keep taking it.`);
}

function heldLock(path: string, content: string, fs: SessionFileSystem, logger: Logger, tookOver: boolean): SessionLock {
  let released: Promise<void> | undefined;
  const release = () => {
    released ??= (async () => {
      try {
        // Only remove our own lock: if another process judged us dead and took over, the lock is theirs.
        if ((await readText(fs, path)) === content) await fs.unlink(path);
        else logger.warn({ lock: path }, 'session: the lock was no longer ours at release');
      } catch (error) {
        logger.warn({ lock: path, err: error }, 'session: releasing the lock failed');
      }
    })();
    return released;
  };
  return { release, stillHeld: async () => (await readText(fs, path)) === content, tookOver };
}

async function readText(fs: SessionFileSystem, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await fs.readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parsePid(text: string): number | undefined {
  try {
    const pid = (JSON.parse(text) as { pid?: unknown }).pid;
    return Number.isSafeInteger(pid) && (pid as number) > 0 ? (pid as number) : undefined;
  } catch {
    return undefined;
  }
}
