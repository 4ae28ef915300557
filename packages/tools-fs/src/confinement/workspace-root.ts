import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';

/** The workspace root, canonicalised once, with the identity of the directory it named then. */
export interface WorkspaceRoot {
  /** Canonical absolute path (`realpath`), the one every containment check compares with. */
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

/**
 * Canonicalises `root` once (docs/reliability.md 1.1 rule 1): resolved against the current directory,
 * then `realpath`. Throws `TypeError` when it is not a string, and `Error` when it does not exist
 * or is not a directory: a misconfigured root is a programmer mistake, reported at setup.
 */
export async function canonicalRoot(root: unknown): Promise<WorkspaceRoot> {
  if (typeof root !== 'string' || root.trim() === '' || root.includes('\u0000')) {
    throw new TypeError(`fsTools: root must be the path of a directory, got ${JSON.stringify(root)}.`);
  }
  let canonical: string;
  try {
    canonical = await realpath(path.resolve(root));
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Say what is wrong in words for the common cases; the code stays for the rest.
    const what = code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory (a part of the path is a file)' : code === 'EACCES' ? 'cannot be read (permission denied)' : `cannot be resolved (${code ?? 'error'})`;
    throw new Error(`fsTools: the workspace root ${JSON.stringify(root)} ${what}.`, { cause: error });
  }
  const info = await stat(canonical, { bigint: true });
  if (!info.isDirectory()) throw new Error(`fsTools: the workspace root ${JSON.stringify(root)} is not a directory.`);
  return Object.freeze({ path: canonical, dev: info.dev, ino: info.ino });
}
