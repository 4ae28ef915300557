import { join } from 'node:path';
import type { Logger } from '@weir/core';
import type { SessionFileSystem } from './session-file-system.js';

/** What a garbage collection of image blobs did. */
export interface BlobCollection {
  /** Blobs no session names any more, removed. */
  readonly removed: number;
  /** Blobs kept: named by a session, or written or reused within the grace period. */
  readonly kept: number;
}

/**
 * How long a blob no session names is kept after it was last written or reused: an append writes
 * (or touches) its images before the line that names them, so a blob younger than this may belong
 * to a line still on its way. An hour is far beyond any append; it only delays freeing space.
 */
export const DEFAULT_BLOB_GRACE_MS = 60 * 60 * 1000;

const BLOB_NAME = /^[0-9a-f]{64}$/;
/** Where a blob waits while the collector decides: out of the name appends look for. */
const PARKED = /^\.gc-([0-9a-f]{64})$/;
/** A blob reference in any text of the store: a log, a damaged log's quarantined copy. */
const REFERENCE = /sha256:([0-9a-f]{64})/g;

export interface CollectBlobsOptions {
  readonly fs: SessionFileSystem;
  /** The store's directory: the logs, `quarantine/` and `blobs/`. */
  readonly root: string;
  readonly graceMs: number;
  readonly logger: Logger;
}

/**
 * Removes the blobs of `root/blobs` that no file of the store names. Safe beside live writers, in
 * this process or another, without a lock:
 *
 * 1. Names are read from every log and quarantined copy as text, so a damaged log keeps its images too.
 * 2. A blob nobody names that was written or touched (see `storeBlob`) within `graceMs` is kept:
 *    its line may not be written yet.
 * 3. An older one is first renamed to `.gc-<hex>` and its time read again. An append that touched it
 *    before the rename has made it young: it is renamed back. An append after the rename finds the
 *    name free and writes the bytes anew. Only then is the parked copy removed.
 *
 * Never throws for one blob (a failure is logged, the blob kept); rejects only when the directory
 * cannot be listed.
 */
export async function collectBlobs({ fs, root, graceMs, logger }: CollectBlobsOptions): Promise<BlobCollection> {
  const blobDir = join(root, 'blobs');
  let blobs: string[];
  try {
    blobs = await fs.readdir(blobDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { removed: 0, kept: 0 };
    throw error;
  }
  const named = await namedBlobs(fs, root);
  let removed = 0;
  let kept = 0;
  const isYoung = (mtimeMs: number) => Date.now() - mtimeMs < graceMs;
  for (const name of blobs) {
    // A collector that stopped half way left a parked blob: put it back, the next pass decides again.
    const parked = PARKED.exec(name)?.[1];
    const hex = parked ?? (BLOB_NAME.test(name) ? name : undefined);
    if (hex === undefined) continue;
    const path = join(blobDir, hex);
    try {
      if (parked !== undefined) {
        await fs.rename(join(blobDir, name), path);
      }
      if (named.has(hex) || isYoung((await fs.stat(path)).mtimeMs)) {
        kept += 1;
        continue;
      }
      const parkedPath = join(blobDir, `.gc-${hex}`);
      await fs.rename(path, parkedPath);
      if (isYoung((await fs.stat(parkedPath)).mtimeMs)) {
        await fs.rename(parkedPath, path);
        kept += 1;
        continue;
      }
      await fs.unlink(parkedPath);
      removed += 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
      logger.warn({ blob: hex, err: error }, 'session: an unused image blob could not be removed; it is kept');
      kept += 1;
    }
  }
  if (removed > 0) await fs.syncDirectory(blobDir);
  return { removed, kept };
}

/** Every blob digest named in the store's logs and quarantined copies, read as text. */
async function namedBlobs(fs: SessionFileSystem, root: string): Promise<Set<string>> {
  const named = new Set<string>();
  const decoder = new TextDecoder();
  const scan = async (dir: string, names: readonly string[]) => {
    for (const name of names) {
      if (!name.endsWith('.jsonl') && dir === root) continue;
      let text: string;
      try {
        text = decoder.decode(await fs.readFile(join(dir, name)));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR') continue;
        throw error;
      }
      for (const match of text.matchAll(REFERENCE)) named.add(match[1]!);
    }
  };
  await scan(root, await fs.readdir(root));
  const quarantine = join(root, 'quarantine');
  await scan(quarantine, await fs.readdir(quarantine).catch(() => []));
  return named;
}
