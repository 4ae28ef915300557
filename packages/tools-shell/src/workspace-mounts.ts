import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ToolCallError } from '@weir/core';

/** True when `path` is `root` or inside it (separator-aware: `/ws-other` is not inside `/ws`). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The canonical working directory for `cwd` (relative to the root, or absolute), which must be
 * an existing directory inside the workspace once symlinks are resolved. Throws `ToolCallError`
 * `PATH_OUTSIDE_WORKSPACE` or `NOT_FOUND` for the model to act on.
 */
export async function resolveWorkingDirectory(root: string, cwd: string | undefined): Promise<string> {
  if (cwd === undefined || cwd === '' || cwd === '.') return root;
  const wanted = resolve(root, cwd);
  if (!isInside(root, wanted)) throw new ToolCallError('PATH_OUTSIDE_WORKSPACE', `cwd ${JSON.stringify(cwd)} is outside the workspace; commands run inside it (give a path relative to the workspace root).`);
  let physical: string;
  try {
    physical = await realpath(wanted);
  } catch {
    throw new ToolCallError('NOT_FOUND', `cwd ${JSON.stringify(cwd)} does not exist in the workspace.`);
  }
  if (!isInside(root, physical)) throw new ToolCallError('PATH_OUTSIDE_WORKSPACE', `cwd ${JSON.stringify(cwd)} leads outside the workspace through a symbolic link.`);
  if (!(await stat(physical)).isDirectory()) throw new ToolCallError('NOT_FOUND', `cwd ${JSON.stringify(cwd)} is not a directory.`);
  return physical;
}

/** Paths to mask, split by kind: a directory is covered by an empty directory, a file by an empty file. */
export interface Masks {
  readonly directories: string[];
  readonly files: string[];
}

/**
 * The workspace entries matching the `hidden` globs now, and the `hiddenAbsolute` paths that
 * exist. Symbolic links are left alone: what they point at is masked if it matches, and a link
 * resolves inside the sandbox's own view. A match under an already masked directory is dropped.
 */
export async function hiddenMounts(root: string, hidden: readonly string[], hiddenAbsolute: readonly string[]): Promise<Masks> {
  // tinyglobby is imported by the first call that hides paths, not with the package (cold start).
  const candidates = hidden.length === 0 ? [] : await (await import('tinyglobby')).glob([...hidden], { cwd: root, dot: true, onlyFiles: false, followSymbolicLinks: false, absolute: true, expandDirectories: false });
  const all = [...new Set([...candidates.map((path) => path.replace(/\/$/, '')), ...hiddenAbsolute])].sort();
  const masks: Masks = { directories: [], files: [] };
  for (const path of all) {
    if (masks.directories.some((dir) => isInside(dir, path))) continue;
    try {
      const entry = await lstat(path);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) masks.directories.push(path);
      else masks.files.push(path);
    } catch {
      // Gone since the glob, or never there: nothing to mask.
    }
  }
  return masks;
}
