import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { FsError } from '../fs-error.js';

/** What the tools know of a file's content as the model last saw it. */
export type FileSnapshot =
  /** SHA-256 of the bytes (files up to the edit limit). */
  | { readonly kind: 'hash'; readonly sha256: string }
  /** Files too large to hash on every read: identity, size and modification time. */
  | { readonly kind: 'identity'; readonly dev: bigint; readonly ino: bigint; readonly size: bigint; readonly mtimeNs: bigint };

// Paths remembered at most; the oldest is forgotten first (it must then be read again).
const MAX_FILES = 10_000;

/** SHA-256 of a file's bytes, hex. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A snapshot from a file's bytes. */
export function hashSnapshot(bytes: Uint8Array): Extract<FileSnapshot, { kind: 'hash' }> {
  return { kind: 'hash', sha256: contentHash(bytes) };
}

/** A snapshot from a file's `fstat` (for files too large to hash). */
export function identitySnapshot(stat: BigIntStats): FileSnapshot {
  return { kind: 'identity', dev: stat.dev, ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs };
}

/**
 * Which files the model has read in this session (the life of the plugin on one harness) and
 * what they held then, by canonical path. The write tools refuse to change a file the model never
 * read, or one whose content changed since (compared by content, not modification time), and
 * record their own writes, so a model can edit a file again after editing it.
 */
export class ReadLedger {
  readonly #seen = new Map<string, FileSnapshot>();

  /** Records what the model has now seen of `relativePath`. */
  record(relativePath: string, snapshot: FileSnapshot): void {
    this.#seen.delete(relativePath);
    this.#seen.set(relativePath, snapshot);
    if (this.#seen.size > MAX_FILES) this.#seen.delete(this.#seen.keys().next().value as string);
  }

  /**
   * Throws `FsError('NOT_READ')` when `relativePath` was never read, `FsError('STALE_READ')` when
   * its current content (`bytes`, or `stat` for a file too large to hash) differs from what was read.
   */
  assertCurrent(relativePath: string, display: string, current: { readonly bytes?: Uint8Array; readonly stat: BigIntStats }): void {
    const seen = this.#seen.get(relativePath);
    if (seen === undefined) {
      throw new FsError('NOT_READ', `${display} exists and has not been read in this session; nothing was written. Read it with read_file first, then retry.`);
    }
    const same =
      seen.kind === 'hash'
        ? current.bytes !== undefined && contentHash(current.bytes) === seen.sha256
        : seen.dev === current.stat.dev && seen.ino === current.stat.ino && seen.size === current.stat.size && seen.mtimeNs === current.stat.mtimeNs;
    if (!same) {
      throw new FsError('STALE_READ', `${display} changed since it was last read (by something other than this session's writes); nothing was written. Read it again with read_file, then retry.`);
    }
  }
}
