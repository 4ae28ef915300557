import type { EntryKind } from '../walking/directory-entry.js';
import { readDirectory } from '../walking/read-directory.js';
import { errnoRefusal, FsError, quote, type FsErrorCode } from '../fs-error.js';
import { readFileBytes } from '../reading/read-file-bytes.js';
import { Workspace } from './workspace.js';

/** Why a path was refused: a tools-fs code and one line. */
export interface WorkspaceFileRefusal {
  readonly ok: false;
  readonly code: FsErrorCode;
  readonly message: string;
}

/** A file read whole. */
export interface WorkspaceFileBytes {
  readonly ok: true;
  /** Relative to the root, `/`-separated: where the file physically is. */
  readonly relativePath: string;
  readonly bytes: Buffer;
}

/** The names of one directory. */
export interface WorkspaceDirectory {
  readonly ok: true;
  readonly relativePath: string;
  /** Sorted by name; links are listed as `symlink`, never followed. */
  readonly entries: ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>;
  /** False when the directory held more than `maxNames` names. */
  readonly complete: boolean;
}

/**
 * The workspace's files read through the file tools' own confinement, for a surface that is not a
 * tool (an MCP server's resources): the same validator (`read_file`'s and `list_dir`'s), so nothing
 * outside the root is read, and no symbolic link leads out. Paths are relative to the root.
 */
export interface WorkspaceFiles {
  /** The canonical root. */
  readonly root: string;
  /** A regular file's bytes, at most `maxBytes` (else `TOO_LARGE`). Never throws. */
  read(path: string, maxBytes: number): Promise<WorkspaceFileBytes | WorkspaceFileRefusal>;
  /** A directory's names, at most `maxNames`. Never throws. */
  list(path: string, maxNames: number): Promise<WorkspaceDirectory | WorkspaceFileRefusal>;
  /**
   * What a regular file is now (device, inode, size, modification time), to notice a change
   * without reading it, and where it physically is; `undefined` when it is not a file one could
   * read. Never throws.
   */
  version(path: string): Promise<{ readonly relativePath: string; readonly version: string } | undefined>;
}

/** Opens the workspace at `root` (canonicalised once). Throws when it is not an existing directory. */
export async function openWorkspaceFiles(root: string): Promise<WorkspaceFiles> {
  const workspace = await Workspace.create(root);
  return {
    root: workspace.root,
    async read(path, maxBytes) {
      const located = await workspace.locate(path, 'read');
      if (!located.ok) return located;
      const display = quote(path);
      try {
        const file = await workspace.openFile(located, display);
        try {
          return { ok: true, relativePath: located.relativePath, bytes: await readFileBytes(file, maxBytes, display) };
        } finally {
          await file.handle.close();
        }
      } catch (error) {
        return asRefusal(error, display);
      }
    },
    async list(path, maxNames) {
      const located = await workspace.locate(path, 'list');
      if (!located.ok) return located;
      const display = quote(path);
      try {
        const directory = await workspace.openDirectory(located, display);
        try {
          const listing = await readDirectory(directory, maxNames);
          return { ok: true, relativePath: located.relativePath, entries: listing.entries, complete: listing.complete };
        } finally {
          await directory.close();
        }
      } catch (error) {
        return asRefusal(error, display);
      }
    },
    async version(path) {
      const located = await workspace.locate(path, 'read');
      if (!located.ok || located.stat === undefined) return undefined;
      const { dev, ino, size, mtimeNs } = located.stat;
      return { relativePath: located.relativePath, version: `${dev}:${ino}:${size}:${mtimeNs}` };
    },
  };
}

function asRefusal(error: unknown, display: string): WorkspaceFileRefusal {
  if (error instanceof FsError) return { ok: false, code: error.code, message: error.message };
  return errnoRefusal(error, display);
}
