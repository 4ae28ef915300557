import { lstat } from 'node:fs/promises';
import { join, normalize, relative } from 'node:path';
import { ToolCallError } from '@weir/core';
import { isInside } from './workspace-mounts.js';

/** One bind over the workspace that keeps a protected path in place. */
export interface ProtectedMount {
  /** Absolute path; the source and the destination of the bind. */
  readonly path: string;
  /** True for a protected path (bound read-only); false for one of its ancestors (bound read-write onto itself). */
  readonly readOnly: boolean;
  /** Its identity when the command started, to tell afterwards that it is still the one bound. */
  readonly dev: bigint;
  readonly ino: bigint;
}

/**
 * The binds that protect the protected paths that exist now, in mount order (shallower first).
 * A read-only bind alone keeps a path's contents but not its place: `mv .github x` would carry
 * the bind away and leave `.github/workflows` free to be made again. So every directory between
 * the root and a protected path is bound onto itself too: a mount point cannot be renamed or
 * removed (`EBUSY`), while the files in it stay writable. A protected path or an ancestor that is
 * a symbolic link is refused (`PROTECTED_PATH_IS_LINK`): binding it would protect its target,
 * not the path, and a link to outside planted at launch is a known escape.
 */
export async function protectedMounts(root: string, protect: readonly string[]): Promise<ProtectedMount[]> {
  const wanted = new Map<string, boolean>();
  for (const name of protect) {
    const segments = normalize(name).split('/').filter((part) => part !== '' && part !== '.');
    if (segments.length === 0) continue;
    const chain: string[] = [];
    let present = true;
    for (let depth = 1; depth <= segments.length && present; depth++) {
      const path = join(root, ...segments.slice(0, depth));
      const entry = await lstatOrUndefined(path);
      if (entry?.isSymbolicLink()) throw linked(name, relative(root, path));
      // Missing, or an ancestor that is a file: nothing to protect (bwrap would otherwise create an empty mount point).
      present = entry !== undefined && (depth === segments.length || entry.isDirectory());
      chain.push(path);
    }
    if (!present) continue;
    for (const [index, path] of chain.entries()) {
      const readOnly = index === chain.length - 1;
      wanted.set(path, readOnly || (wanted.get(path) ?? false));
    }
  }
  const readOnly = [...wanted].filter(([, ro]) => ro).map(([path]) => path);
  const mounts: ProtectedMount[] = [];
  for (const [path, ro] of wanted) {
    // Inside a read-only path a read-write bind would open what the read-only one closed.
    if (!ro && readOnly.some((protectedPath) => isInside(protectedPath, path))) continue;
    const entry = await lstat(path, { bigint: true });
    mounts.push({ path, readOnly: ro, dev: entry.dev, ino: entry.ino });
  }
  return mounts.sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1));
}

/**
 * Checks after a command that every path bound at its start is still there, the same file or
 * directory and not a link. A change means something outside the sandbox (another process on
 * the host) swapped it while the command ran: the workspace no longer holds what was protected.
 * Throws `ToolCallError` `PROTECTED_PATH_REPLACED` naming each such path.
 */
export async function verifyProtectedMounts(root: string, mounts: readonly ProtectedMount[]): Promise<void> {
  const replaced: string[] = [];
  for (const mount of mounts) {
    let entry;
    try {
      entry = await lstat(mount.path, { bigint: true });
    } catch {
      entry = undefined;
    }
    if (entry === undefined || entry.isSymbolicLink() || entry.dev !== mount.dev || entry.ino !== mount.ino) replaced.push(relative(root, mount.path));
  }
  if (replaced.length === 0) return;
  const names = replaced.map((name) => JSON.stringify(name)).join(', ');
  throw new ToolCallError(
    'PROTECTED_PATH_REPLACED',
    `the protected path${replaced.length > 1 ? 's' : ''} ${names} ${replaced.length > 1 ? 'were' : 'was'} replaced while the command ran, from outside the sandbox; what is there now is not what was protected. Stop and have a person check the workspace before anything in it runs.`,
  );
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

function depth(path: string): number {
  return path.split('/').length;
}

function linked(name: string, at: string): ToolCallError {
  const what = at === normalize(name).replace(/\/$/, '') ? 'is a symbolic link' : `leads through the symbolic link ${JSON.stringify(at)}`;
  return new ToolCallError('PROTECTED_PATH_IS_LINK', `the protected path ${JSON.stringify(name)} ${what}; the sandbox refuses to run until it is a real file or directory.`);
}
