import { FsError, quote } from '../fs-error.js';
import type { Workspace } from '../confinement/workspace.js';
import { sha256, type BlobStore } from './blob-store.js';
import { ABSENT, describeState, sameState, type FileState } from './file-state.js';

/**
 * The state `relativePath` holds now, read through the workspace's confined opens (no link
 * followed out of the root): its bytes, stored in `blobs` when `keep` is set, and mode; or absent.
 * Throws `FsError` when the path cannot be a file weir writes (a directory, a link out, hard links).
 */
export async function readFileState(workspace: Workspace, blobs: BlobStore, relativePath: string, keep: boolean): Promise<FileState> {
  const display = quote(relativePath);
  const located = await workspace.locateOrThrow(relativePath, 'write');
  if (located.stat === undefined) return ABSENT;
  const file = await workspace.openFile(located, display);
  try {
    const bytes = await file.handle.readFile();
    const hash = keep ? await blobs.put(bytes) : sha256(bytes);
    return { kind: 'file', hash, mode: Number(file.stat.mode & 0o777n) };
  } finally {
    await file.handle.close();
  }
}

/**
 * Sets `relativePath` from `from` (what it must hold now) to `to`, through the workspace's confined
 * writes: a file is replaced atomically with its bytes and mode (parents created inside the root),
 * an absent one is removed. Throws `FsError('PATH_CHANGED')` when the path does not hold `from`,
 * and `FsError('FS_ERROR')` when the bytes of `to` are not in the store.
 */
export async function applyFileState(workspace: Workspace, blobs: BlobStore, relativePath: string, from: FileState, to: FileState): Promise<void> {
  const display = quote(relativePath);
  const located = await workspace.locateOrThrow(relativePath, 'write');
  const holdsFrom = async (existing: { handle: { readFile(): Promise<Buffer> }; stat: { mode: bigint } } | undefined) => {
    const now: FileState = existing === undefined ? ABSENT : { kind: 'file', hash: sha256(await existing.handle.readFile()), mode: Number(existing.stat.mode & 0o777n) };
    if (!sameState(now, from)) throw new FsError('PATH_CHANGED', `${display} changed while it was being rewound (it holds ${describeState(now)}, not ${describeState(from)}); it is left as it is.`);
  };
  if (to.kind === 'absent') {
    if (located.stat === undefined) return holdsFrom(undefined);
    await workspace.removeFile(located, display, holdsFrom);
    return;
  }
  const bytes = await blobs.get(to.hash);
  if (bytes === undefined) throw new FsError('FS_ERROR', `the stored copy of ${display} (${to.hash.slice(0, 12)}) is missing or damaged; it cannot be restored.`);
  await workspace.replaceFile(located, display, {
    createParents: true,
    mode: to.mode,
    produce: async (existing) => {
      await holdsFrom(existing);
      return bytes;
    },
  });
}
