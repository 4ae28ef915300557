import type { Dirent } from 'node:fs';
import { opendir } from 'node:fs/promises';
import type { HeldDirectory } from '../confinement/held-directory.js';
import type { DirectoryEntry, DirectoryListing, EntryKind } from './directory-entry.js';

/**
 * Reads at most `maxNames` names of an open directory, streaming, so a directory of a million
 * entries costs `maxNames` entries of memory. Reads the directory the handle holds (through
 * `/proc/self/fd/N` on Linux). Throws the system error if the directory cannot be read.
 */
export async function readDirectory(directory: HeldDirectory, maxNames: number, signal?: AbortSignal): Promise<DirectoryListing> {
  const entries: DirectoryEntry[] = [];
  let complete = true;
  const dir = await opendir(directory.listingPath, { bufferSize: 256 });
  try {
    for (let dirent = await dir.read(); dirent !== null; dirent = await dir.read()) {
      if (entries.length >= maxNames) {
        complete = false;
        break;
      }
      signal?.throwIfAborted();
      entries.push({ name: dirent.name, kind: kindOf(dirent) });
    }
  } finally {
    await dir.close();
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, complete };
}

function kindOf(dirent: Dirent): EntryKind {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isFile()) return 'file';
  return 'other';
}
