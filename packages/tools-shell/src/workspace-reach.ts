import { statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { ShellUser } from './shell-options.js';

const SEARCH = 1;
const WRITE = 2;

/** Why the sandbox user cannot use the workspace: the first directory that stops it, and what it lacks. */
export interface WorkspaceBlock {
  readonly path: string;
  readonly lacks: 'search' | 'write';
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/**
 * The first directory on the way to `root` (from `/` down) that `user` may not search, or `root`
 * itself when it may not write there; undefined when nothing stops it. Reads the mode bits only
 * (owner, group, other): ACLs and supplementary groups are not seen, so a block found here explains
 * a failed sandbox probe and never refuses a working one on its own.
 */
export function workspaceBlock(root: string, user: ShellUser): WorkspaceBlock | undefined {
  const ancestors: string[] = [];
  for (let path = root; ; path = dirname(path)) {
    ancestors.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of ancestors) {
    const stats = statSync(path);
    if (!allows(stats, user, SEARCH)) return block(path, 'search', stats);
  }
  const stats = statSync(root);
  return allows(stats, user, WRITE | SEARCH) ? undefined : block(root, 'write', stats);
}

/** One line: what blocks the sandbox user, who that user is, and the two fixes. */
export function describeWorkspaceBlock(root: string, user: ShellUser, found: WorkspaceBlock): string {
  const what = found.lacks === 'search' ? `cannot enter ${found.path}` : `cannot write in the workspace ${found.path}`;
  const mode = `mode ${(found.mode & 0o777).toString(8).padStart(4, '0')}, owner uid ${found.uid} gid ${found.gid}`;
  const chmod = found.lacks === 'search' ? `chmod o+x ${found.path}` : `chown ${user.uid}:${user.gid} ${found.path}`;
  return `the sandbox user (uid ${user.uid}, gid ${user.gid}: commands never run as root) ${what} (${mode}), so it cannot reach ${root}; fix it with ${chmod} (or chown the folder to that user), or pass user: { uid, gid } of a user who can reach the workspace`;
}

function allows(stats: Stats, user: ShellUser, bits: number): boolean {
  const shift = user.uid === stats.uid ? 6 : user.gid === stats.gid ? 3 : 0;
  return ((stats.mode >> shift) & bits) === bits;
}

function block(path: string, lacks: WorkspaceBlock['lacks'], stats: Stats): WorkspaceBlock {
  return { path, lacks, mode: stats.mode, uid: stats.uid, gid: stats.gid };
}
