import type { BigIntStats } from 'node:fs';
import { lstat, opendir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { relativeInside } from './containment.js';
import { errnoCode, errnoRefusal, quote, refusal, type FsRefusal } from '../fs-error.js';
import type { WorkspaceRoot } from './workspace-root.js';

/** A path inside the workspace, decided on its physical (canonical) form. */
export interface Located {
  readonly ok: true;
  /** Canonical absolute path: every symbolic link followed, no `.` or `..`. */
  readonly path: string;
  /** `path` relative to the root, `/`-separated, `.` for the root itself. */
  readonly relativePath: string;
  /** `lstat` of `path` when it exists; `undefined` when the leaf (and maybe parents) do not exist yet. */
  readonly stat: BigIntStats | undefined;
  /** How many trailing components of `relativePath` do not exist yet (0 when the path exists). */
  readonly missing: number;
}

// Unicode-equivalent spellings are looked for in at most this many entries of one directory.
const MAX_EQUIVALENT_SCAN = 100_000;
// One substitution per component at most; a path has at most PATH_MAX / 2 components.
const MAX_SUBSTITUTIONS = 2048;

/**
 * Decides where `input` (already checked by `checkPathSyntax`) physically is (docs/reliability.md 1.1
 * rules 3 and 4): `realpath` the whole path, so a symbolic link before `..` is followed the way
 * the kernel follows it; when the leaf does not exist, `realpath` the nearest existing ancestor
 * and append the rest. Every resolution error but "does not exist" is refused, and so is a
 * dangling symbolic link (the kernel would follow it when creating the file). The containment
 * check runs before anything below an outside ancestor is looked at. Never throws.
 */
export async function locatePhysical(root: WorkspaceRoot, input: string): Promise<Located | FsRefusal> {
  return locate(root, input, quote(input), 0);
}

async function locate(root: WorkspaceRoot, input: string, display: string, substitutions: number): Promise<Located | FsRefusal> {
  const joined = path.isAbsolute(input) ? input : `${root.path}/${input}`;
  try {
    const canonical = await realpath(joined);
    const relativePath = relativeInside(root.path, canonical);
    if (relativePath === undefined) return outside(display);
    const info = await lstat(canonical, { bigint: true });
    // realpath left no link in `canonical`: one there now was put there since.
    if (info.isSymbolicLink()) return refusal('PATH_CHANGED', `${display} changed while it was being resolved. Try again.`);
    return { ok: true, path: canonical, relativePath, stat: info, missing: 0 };
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return errnoRefusal(error, display);
  }

  const names = joined.split('/').filter((name) => name !== '');
  let base: string | undefined;
  let tail: string[] = [];
  for (let keep = names.length - 1; keep >= 0 && base === undefined; keep -= 1) {
    try {
      base = await realpath(`/${names.slice(0, keep).join('/')}`);
      tail = names.slice(keep);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') return errnoRefusal(error, display);
    }
  }
  if (base === undefined) return refusal('NOT_FOUND', `${display} does not exist.`);
  const baseRelative = relativeInside(root.path, base);
  if (baseRelative === undefined) return outside(display);

  tail = tail.filter((name) => name !== '.');
  const [first] = tail;
  if (first === undefined) return refusal('PATH_CHANGED', `${display} changed while it was being resolved. Try again.`);
  if (tail.includes('..')) {
    return refusal('NOT_FOUND', `${display} goes through ${quote(first)}, which does not exist ("..", after a missing directory, leads nowhere).`);
  }

  const firstPath = joinPath(base, first);
  try {
    const info = await lstat(firstPath);
    // It exists although realpath said it does not: a link to nothing (or a race).
    if (info.isSymbolicLink()) {
      return refusal('BROKEN_SYMLINK', `${display} goes through ${quote(joinRelative(baseRelative, first))}, a symbolic link whose target does not exist. Use the target's own path.`);
    }
    return refusal('PATH_CHANGED', `${display} changed while it was being resolved. Try again.`);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return errnoRefusal(error, display);
  }

  // A name spelled in another Unicode normalisation form (NFD from macOS, NFC elsewhere).
  if (/[^\u0000-\u007f]/.test(first) && substitutions < MAX_SUBSTITUTIONS) {
    const equivalents = await equivalentNames(base, first, display);
    if (!Array.isArray(equivalents)) return equivalents;
    if (equivalents.length > 1) {
      return refusal('INVALID_PATH', `${display} matches ${equivalents.length} names that differ only in Unicode normalisation; name one exactly (see list_dir).`);
    }
    const [equivalent] = equivalents;
    if (equivalent !== undefined) return locate(root, joinPath(joinPath(base, equivalent), tail.slice(1).join('/')), display, substitutions + 1);
  }

  const canonical = joinPath(base, tail.join('/'));
  return { ok: true, path: canonical, relativePath: joinRelative(baseRelative, tail.join('/')), stat: undefined, missing: tail.length };
}

async function equivalentNames(directory: string, name: string, display: string): Promise<string[] | FsRefusal> {
  const wanted = name.normalize('NFC');
  const found: string[] = [];
  let scanned = 0;
  try {
    for await (const entry of await opendir(directory)) {
      if (entry.name !== name && entry.name.normalize('NFC') === wanted) found.push(entry.name);
      scanned += 1;
      if (scanned >= MAX_EQUIVALENT_SCAN) break;
    }
  } catch (error) {
    return errnoRefusal(error, display);
  }
  return found;
}

function outside(display: string): FsRefusal {
  return refusal('PATH_OUTSIDE_WORKSPACE', `${display} is outside the workspace (after following symbolic links). Only paths inside the workspace root can be used.`);
}

function joinPath(base: string, rest: string): string {
  if (rest === '') return base;
  return base === '/' ? `/${rest}` : `${base}/${rest}`;
}

function joinRelative(base: string, rest: string): string {
  if (rest === '') return base;
  return base === '.' ? rest : `${base}/${rest}`;
}
