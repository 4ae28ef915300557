import { lstatSync } from 'node:fs';
import type { Ignore } from 'ignore';
import { quote } from '../fs-error.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import type { HeldDirectory } from '../confinement/held-directory.js';
import { readHeldFileSync } from './fd-directory.js';
import { readDirectory } from './read-directory.js';

/** The ignore files read in every directory, weakest first (ripgrep's order: `.rgignore` wins). */
export const IGNORE_FILES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];
// Directories never entered unless the glob names them: version control, and installed packages
// (also when include_ignored asks for ignored files: there is no end to them).
const ALWAYS_SKIPPED = ['.git'];
const SKIPPED_UNLESS_NAMED = ['node_modules'];
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

type IgnoreFactory = typeof import('ignore');
type Picomatch = typeof import('picomatch');

// The glob and ignore engines load with the first walk, not with the package (the cold-start rule).
let engines: Promise<{ readonly picomatch: Picomatch; readonly ignore: IgnoreFactory }> | undefined;
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
  /** Directories (relative to the root) never entered, whatever the rules say. */
  readonly skip?: ReadonlySet<string>;
}

/** The rules of one directory's ignore files. */
export interface IgnoreLevel {
  /** The directory the rules belong to, relative to the root (`.` for the root). */
  readonly base: string;
  readonly rules: Ignore;
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
export type DirectoryVisitor = (directory: HeldDirectory, files: readonly WalkedFile[]) => Promise<void>;

/**
 * What a walk enters and includes, the way ripgrep decides it: hidden names, `.git` and
 * `node_modules` (unless the glob names them), ignore rules, the glob. One per walk; both walks
 * (the full one and the one along ripgrep's candidates) ask it, so they cannot disagree.
 */
export class WalkRules {
  private constructor(
    readonly options: WalkOptions,
    private readonly ignore: IgnoreFactory,
    private readonly matchesGlob: (path: string) => boolean,
    /** The start directory relative to the root, with a trailing `/` (empty for the root). */
    private readonly startPrefix: string,
  ) {}

  /** Loads the engines and compiles the glob. */
  static async create(start: string, options: WalkOptions): Promise<WalkRules> {
    const { picomatch, ignore } = await loadEngines();
    const glob = options.glob;
    const matches = glob === undefined ? () => true : picomatch(glob, { dot: true, basename: !glob.includes('/') });
    return new WalkRules(options, ignore, matches, start === '.' ? '' : `${start}/`);
  }

  /** Whether the walk enters the directory `name` (at `relativePath`, from the root) under `scope`. */
  entersDirectory(name: string, relativePath: string, scope: readonly IgnoreLevel[]): boolean {
    if (this.options.skip?.has(relativePath) === true) return false;
    if (name.startsWith('.') && !this.options.hidden && !this.namedInGlob(name)) return false;
    if ((ALWAYS_SKIPPED.includes(name) || SKIPPED_UNLESS_NAMED.includes(name)) && !this.namedInGlob(name)) return false;
    return !isIgnored(scope, relativePath, true);
  }

  /** Whether the walk includes the file `name` (at `relativePath`, from the root) under `scope`. */
  includesFile(name: string, relativePath: string, scope: readonly IgnoreLevel[]): boolean {
    if (name.startsWith('.') && !this.options.hidden && !this.namedInGlob(name)) return false;
    if (isIgnored(scope, relativePath, false)) return false;
    return this.matchesGlob(relativePath.slice(this.startPrefix.length));
  }

  /** Whether the glob names `name` (then hidden, `.git` and `node_modules` entries are walked). */
  namedInGlob(name: string): boolean {
    return this.options.glob !== undefined && this.options.glob.includes(name);
  }

  /** `scope` with the rules of `directory`'s ignore files added, given the names of its regular files. */
  scopeIn(directory: HeldDirectory, fileNames: readonly string[], base: string, scope: readonly IgnoreLevel[]): readonly IgnoreLevel[] {
    if (this.options.includeIgnored) return scope;
    const own = rulesIn(this.ignore, directory, IGNORE_FILES.filter((name) => fileNames.includes(name)), base);
    return own === undefined ? scope : [...scope, own];
  }

  /**
   * `scopeIn` for a directory that was not listed: its ignore files are looked up by name
   * (`lstat` beneath the held directory, links not followed).
   */
  scopeInUnlisted(directory: HeldDirectory, base: string, scope: readonly IgnoreLevel[]): readonly IgnoreLevel[] {
    if (this.options.includeIgnored) return scope;
    const present = IGNORE_FILES.filter((name) => lstatSync(directory.child(name), { throwIfNoEntry: false })?.isFile() === true);
    if (present.length === 0) return scope;
    return this.scopeIn(directory, present, base, scope);
  }

  /** The rules of the directories from the root down to (not including) `relative`, read through the validator. */
  async ancestorScope(deps: FsToolDeps, relative: string): Promise<readonly IgnoreLevel[]> {
    if (this.options.includeIgnored || relative === '.') return [];
    const names = relative.split('/');
    let levels: readonly IgnoreLevel[] = [];
    for (let depth = 0; depth < names.length; depth += 1) {
      const base = depth === 0 ? '.' : names.slice(0, depth).join('/');
      const located = await deps.workspace.locate(base, 'list');
      if (!located.ok) continue;
      const directory = await deps.workspace.openDirectory(located, quote(base));
      try {
        const listing = await readDirectory(directory, deps.limits.maxDirectoryNames);
        levels = this.scopeIn(directory, listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name), base, levels);
      } finally {
        await directory.close();
      }
    }
    return levels;
  }
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

// The ignore files `present` in one held directory, read no-follow beneath it. Unreadable ones are skipped.
function rulesIn(ignore: IgnoreFactory, directory: HeldDirectory, present: readonly string[], base: string): IgnoreLevel | undefined {
  if (present.length === 0) return undefined;
  const rules = ignore({ allowRelativePaths: true });
  for (const name of present) {
    const bytes = readHeldFileSync(directory, name, MAX_IGNORE_FILE_BYTES);
    if (bytes !== undefined) rules.add(bytes.toString('utf8'));
  }
  return { base, rules };
}
