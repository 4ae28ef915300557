import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { BlobStore } from './blob-store.js';
import type { FileStamp } from './file-stamp.js';
import type { FileState } from './file-state.js';

/** One file as the shell snapshot last knew it: its stamp, and its state when it was kept. */
export interface IndexedFile extends FileStamp {
  /** `undefined` when the file is over the size bound: not kept, so not restorable. */
  readonly state: Extract<FileState, { kind: 'file' }> | undefined;
  /**
   * Read within the margin of its change time: a write later in the same tick of the kernel's file
   * clock would leave the stamp as it is, so the next walk reads it again (git's "racily clean").
   */
  readonly racy: boolean;
}

const VERSION = 1;

/**
 * This boot of the machine (Linux's `boot_id`); `undefined` elsewhere. The snapshot's blobs are not
 * synced one by one (a first baseline is every file of the workspace), so an index written without
 * syncing them is trusted in the same boot only: a process crash keeps every blob whole (each is a
 * complete file renamed to its name), a power cut may not.
 */
function currentBoot(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the index a previous process of the session left, so that its baseline is a walk of stamps
 * rather than a copy of every file. An entry is only a claim: a file is taken from it when its
 * stamp now is the same and its blob is in the store, else it is read again. A missing, unreadable
 * or malformed index (or row) is left out. Never throws.
 */
export async function readShellIndex(path: string): Promise<Map<string, IndexedFile>> {
  const files = new Map<string, IndexedFile>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return files;
  }
  const { v, boot, synced, rows } = (parsed ?? {}) as { v?: unknown; boot?: unknown; synced?: unknown; rows?: unknown };
  if (v !== VERSION || !Array.isArray(rows)) return files;
  // Written without its blobs synced, in another boot: a blob it names may have been cut short.
  if (synced !== true && (typeof boot !== 'string' || boot !== currentBoot())) return files;
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 8) continue;
    const [file, size, mtimeMs, ctimeMs, ino, hash, mode, racy] = row as unknown[];
    if (typeof file !== 'string' || ![size, mtimeMs, ctimeMs, ino].every((n) => typeof n === 'number' && Number.isFinite(n))) continue;
    if (!(hash === null || (typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash))) || !Number.isInteger(mode) || typeof racy !== 'boolean') continue;
    const state = hash === null ? undefined : { kind: 'file' as const, hash, mode: mode as number };
    files.set(file, { size: size as number, mtimeMs: mtimeMs as number, ctimeMs: ctimeMs as number, ino: ino as number, state, racy });
  }
  return files;
}

/**
 * Replaces the index with `files` (a temporary file renamed over it: a reader sees the old index or
 * the new one). Not synced: a lost or stale index only costs reads. Where the boot is known, the
 * blobs are not synced either and the index holds for this boot only; elsewhere `blobs` are synced
 * first, so a claim never outlives its bytes. Throws a system error.
 */
export async function writeShellIndex(path: string, files: readonly (readonly [string, IndexedFile])[], blobs: BlobStore): Promise<void> {
  const boot = currentBoot();
  if (boot === undefined) {
    for (const [, file] of files) if (file.state !== undefined) blobs.needDurable(file.state.hash);
    await blobs.sync();
  }
  const rows: unknown[] = [];
  for (const [file, f] of files) rows.push([file, f.size, f.mtimeMs, f.ctimeMs, f.ino, f.state?.hash ?? null, f.state?.mode ?? 0, f.racy]);
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, JSON.stringify({ v: VERSION, boot: boot ?? null, synced: boot === undefined, rows }), { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
