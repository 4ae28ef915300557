import type { Ignore } from 'ignore';
import { FsError, quote } from './fs-error.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import type { Located } from './locate-physical.js';
import type { OpenDirectory } from './open-directory.js';
import { openRegularFile } from './open-directory.js';
import { readDirectory } from './read-directory.js';
import { readFileBytes } from './read-file-bytes.js';

/** The ignore files read in every directory, weakest first (ripgrep's order: `.rgignore` wins). */
export const IGNORE_FILES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];
// Directories never entered unless the glob names them: version control, and installed packages
// (also when include_ignored asks for ignored files: there is no end to them).
const ALWAYS_SKIPPED = ['.git'];
const SKIPPED_UNLESS_NAMED = ['node_modules'];
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

type IgnoreFactory = typeof import('ignore');

// The glob and ignore engines load with the first walk, not with the package (the cold-start rule).
let engines: Promise<{ readonly picomatch: typeof import('picomatch'); readonly ignore: IgnoreFactory }> | undefined;
function loadEngines(): NonNullable<typeof engines> {
  engines ??= Promise.all([import('picomatch'), import('ignore')]).then(([picomatch, ignore]) => ({ picomatch: commonJsExport(picomatch), ignore: commonJsExport(ignore) }));
  return engines;
}

// Both are CommonJS: Node hands their `module.exports` over as `default`, which their types leave out.
function commonJsExport<T>(namespace: T): T {
  return (namespace as { readonly default?: T }).default ?? namespace;
}

/** What a walk includes. */
export interface WalkOptions {
  /** A glob; without `/` it matches file names at any depth (as in ripgrep), with `/` paths under the start. */
  readonly glob: string | undefined;
  /** Include hidden files and directories (names starting with `.`). */
  readonly hidden: boolean;
  /** Include files that `.gitignore`, `.ignore` or `.rgignore` rules leave out. */
  readonly includeIgnored: boolean;
  readonly signal: AbortSignal;
  /**
   * Enter only these directories (relative to the start): when another engine already listed the
   * only files that can matter, the walk skips the subtrees that hold none of them.
   */
  readonly onlyInto?: ReadonlySet<string>;
}

/** A file the walk found, in the directory handed to the visitor with it. */
export interface WalkedFile {
  readonly name: string;
  /** Relative to the workspace root. */
  readonly relativePath: string;
}

/**
 * Visits the files of one directory while that directory is held open: children are opened
 * beneath it (`/proc/self/fd/N/name`, no following).
 */
export type DirectoryVisitor = (directory: OpenDirectory, files: readonly WalkedFile[]) => Promise<void>;

interface IgnoreLevel {
  /** The directory the rules belong to, relative to the root (`.` for the root). */
  readonly base: string;
  readonly rules: Ignore;
}

/**
 * Walks the files under `start` the way ripgrep does: `.gitignore` files (nested ones too),
 * `.ignore` and `.rgignore` respected (with their rules for the directories above `start`,
 * inside the root), hidden names skipped, symbolic links never followed, `.git` never entered
 * unless the glob names it. Every directory is opened no-follow beneath the one that listed it
 * and checked to be inside the root; files are handed to `visit` with their directory open.
 * Returns whether the crawl stopped at its cap. Throws `FsError`.
 */
export async function walkFiles(deps: FsToolDeps, start: Located, options: WalkOptions, visit: DirectoryVisitor): Promise<{ readonly incomplete: boolean }> {
  const { workspace, limits } = deps;
  const { picomatch, ignore } = await loadEngines();
  const glob = options.glob;
  const matches = glob === undefined ? () => true : picomatch(glob, { dot: true, basename: !glob.includes('/') });
  const namedInGlob = (name: string) => glob !== undefined && glob.includes(name);
  const startPrefix = start.relativePath === '.' ? '' : `${start.relativePath}/`;
  let crawled = 0;
  let incomplete = false;

  const levels: IgnoreLevel[] = options.includeIgnored ? [] : await ancestorRules(deps, start.relativePath, ignore);

  const walk = async (directory: OpenDirectory, relative: string, inherited: readonly IgnoreLevel[]): Promise<void> => {
    options.signal.throwIfAborted();
    const listing = await readDirectory(directory, limits.maxDirectoryNames, options.signal);
    crawled += listing.entries.length;
    if (!listing.complete) incomplete = true;
    let scope = inherited;
    if (!options.includeIgnored) {
      const own = await rulesIn(ignore, directory, listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name), relative);
      if (own !== undefined) scope = [...inherited, own];
    }
    const files: WalkedFile[] = [];
    const directories: string[] = [];
    for (const { name, kind } of listing.entries) {
      if (kind !== 'file' && kind !== 'directory') continue;
      if (name.startsWith('.') && !options.hidden && !namedInGlob(name)) continue;
      const relativePath = relative === '.' ? name : `${relative}/${name}`;
      if (kind === 'directory') {
        if (ALWAYS_SKIPPED.includes(name) && !namedInGlob(name)) continue;
        if (SKIPPED_UNLESS_NAMED.includes(name) && !namedInGlob(name)) continue;
        if (isIgnored(scope, relativePath, true)) continue;
        if (options.onlyInto !== undefined && !options.onlyInto.has(relativePath.slice(startPrefix.length))) continue;
        directories.push(name);
      } else {
        if (isIgnored(scope, relativePath, false)) continue;
        if (!matches(relativePath.slice(startPrefix.length))) continue;
        files.push({ name, relativePath });
      }
    }
    if (files.length > 0) await visit(directory, files);
    for (const name of directories) {
      if (crawled > limits.maxCrawlEntries) {
        incomplete = true;
        return;
      }
      const display = quote(relative === '.' ? name : `${relative}/${name}`);
      let child: OpenDirectory;
      try {
        child = await directory.openChild(name, display);
      } catch (error) {
        // Replaced by a link or removed since it was listed: not followed, not searched.
        if (error instanceof FsError) continue;
        throw error;
      }
      try {
        await workspace.assertInside(child.handle, display);
        await walk(child, relative === '.' ? name : `${relative}/${name}`, scope);
      } finally {
        await child.close();
      }
    }
  };

  const top = await workspace.openDirectory(start, quote(start.relativePath));
  try {
    await walk(top, start.relativePath, levels);
  } finally {
    await top.close();
  }
  return { incomplete };
}

// The last rule that decides wins, deepest directory last: a deeper `!keep.log` re-includes.
function isIgnored(levels: readonly IgnoreLevel[], relativePath: string, directory: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const inside = level.base === '.' ? relativePath : relativePath.slice(level.base.length + 1);
    const verdict = level.rules.test(directory ? `${inside}/` : inside);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

// The ignore files of one open directory, read no-follow beneath it. Unreadable ones are skipped.
async function rulesIn(ignore: IgnoreFactory, directory: OpenDirectory, fileNames: readonly string[], base: string): Promise<IgnoreLevel | undefined> {
  const present = IGNORE_FILES.filter((name) => fileNames.includes(name));
  if (present.length === 0) return undefined;
  const rules = ignore({ allowRelativePaths: true });
  for (const name of present) {
    try {
      const file = await openRegularFile(directory, name, quote(name));
      try {
        rules.add((await readFileBytes(file, MAX_IGNORE_FILE_BYTES, quote(name))).toString('utf8'));
      } finally {
        await file.handle.close();
      }
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
    }
  }
  return { base, rules };
}

// Rules of the directories from the root down to (not including) `relative`, read through the validator.
async function ancestorRules(deps: FsToolDeps, relative: string, ignore: IgnoreFactory): Promise<IgnoreLevel[]> {
  if (relative === '.') return [];
  const names = relative.split('/');
  const levels: IgnoreLevel[] = [];
  for (let depth = 0; depth < names.length; depth += 1) {
    const base = depth === 0 ? '.' : names.slice(0, depth).join('/');
    const located = await deps.workspace.locate(base, 'list');
    if (!located.ok) continue;
    const directory = await deps.workspace.openDirectory(located, quote(base));
    try {
      const listing = await readDirectory(directory, deps.limits.maxDirectoryNames);
      const level = await rulesIn(ignore, directory, listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name), base);
      if (level !== undefined) levels.push(level);
    } finally {
      await directory.close();
    }
  }
  return levels;
}
