import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import { relativeInside } from '../confinement/containment.js';
import { FsError, refusal, type FsRefusal } from '../fs-error.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import type { Located } from '../confinement/locate-physical.js';
import { readDirectory } from './read-directory.js';

/** Files a glob matched, every one validated. */
export interface MatchedFiles {
  /** Paths relative to the workspace root, sorted. */
  readonly paths: readonly string[];
  /** True when the crawl stopped at its cap, so matches may be missing. */
  readonly incomplete: boolean;
}

const MAX_PATTERN_CHARS = 1000;
const VALIDATION_BATCH = 32;
// Traversal spelled in a pattern, including inside braces (`{..,src}/x`).
const PARENT_SEGMENT = /(?:^|[/{,])\.\.(?:$|[/},])/;

/**
 * The lexical rules for a glob (catalogue row 29): relative, no `..` segment (not even inside
 * braces), no `~`, no backslash (an escape in globs, a separator on Windows), no NUL. Returns the
 * refusal (`INVALID_PATTERN`) or `undefined`. Never throws.
 */
export function checkGlobPattern(pattern: unknown): FsRefusal | undefined {
  if (typeof pattern !== 'string' || pattern.trim() === '') return refusal('INVALID_PATTERN', 'The glob pattern must be a non-empty string such as "**/*.ts".');
  if (pattern.length > MAX_PATTERN_CHARS) return refusal('INVALID_PATTERN', `The glob pattern is longer than ${MAX_PATTERN_CHARS} characters.`);
  if (pattern.includes('\u0000')) return refusal('INVALID_PATTERN', 'The glob pattern contains a NUL byte.');
  if (pattern.startsWith('/')) return refusal('INVALID_PATTERN', 'The glob pattern must be relative to the search directory; it cannot start with "/".');
  if (pattern.startsWith('~')) return refusal('INVALID_PATTERN', 'The glob pattern cannot start with "~": home directories are outside the workspace.');
  if (pattern.includes('\\')) return refusal('INVALID_PATTERN', 'The glob pattern cannot contain backslashes; use "/" as the separator.');
  if (PARENT_SEGMENT.test(pattern)) return refusal('INVALID_PATTERN', 'The glob pattern cannot contain "..": it only matches inside the search directory.');
  return undefined;
}

/**
 * Crawls `directory` for files matching `pattern` with tinyglobby, through a file system adapter
 * that reads every directory with the workspace's validator and no-follow opener (so the glob
 * library never reads a directory by a path of its own), without following links, and then
 * validates every match again (docs/reliability.md 1.1 rule 6). `.git` and `node_modules` are skipped
 * unless the pattern names them. Throws `FsError`.
 */
export async function findMatchingFiles({ workspace, limits }: FsToolDeps, directory: Located, pattern: string, signal: AbortSignal): Promise<MatchedFiles> {
  const crawl = new AbortController();
  const stop = () => crawl.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let crawled = 0;
  let incomplete = false;

  const readForGlob = async (directoryPath: string): Promise<Dirent[]> => {
    const relative = relativeInside(workspace.root, path.resolve(directoryPath));
    if (relative === undefined) throw new FsError('PATH_OUTSIDE_WORKSPACE', 'The crawl left the workspace.');
    const located = await workspace.locateOrThrow(relative, 'list');
    const open = await workspace.openDirectory(located, JSON.stringify(relative));
    try {
      const listing = await readDirectory(open, limits.maxDirectoryNames, crawl.signal);
      crawled += listing.entries.length;
      if (!listing.complete || crawled > limits.maxCrawlEntries) {
        incomplete = true;
        if (crawled > limits.maxCrawlEntries) crawl.abort();
      }
      return listing.entries.map(({ name, kind }) => direntLike(name, kind));
    } finally {
      await open.close();
    }
  };

  const ignore = ['.git', 'node_modules'].filter((name) => !pattern.includes(name)).map((name) => `**/${name}/**`);
  let matches: string[];
  // Imported on the first search, not with the package: importing tools-fs must not pay for it (cold start).
  const { glob } = await import('tinyglobby');
  try {
    matches = await glob(pattern, {
      cwd: directory.path,
      dot: true,
      followSymbolicLinks: false,
      onlyFiles: true,
      ignore,
      signal: crawl.signal,
      fs: {
        readdir: ((directoryPath: string, _options: unknown, callback: (error: Error | null, entries: Dirent[]) => void) => {
          readForGlob(directoryPath).then(
            (entries) => callback(null, entries),
            (error: Error) => callback(error, []),
          );
        }) as never,
        readdirSync: refuseSync as never,
        realpath: refuseAsync as never,
        realpathSync: refuseSync as never,
        stat: refuseAsync as never,
        statSync: refuseSync as never,
      },
    });
  } finally {
    signal.removeEventListener('abort', stop);
  }
  signal.throwIfAborted();

  const candidates = matches.map((match) => (directory.relativePath === '.' ? match : `${directory.relativePath}/${match}`));
  const paths: string[] = [];
  for (let start = 0; start < candidates.length; start += VALIDATION_BATCH) {
    const batch = candidates.slice(start, start + VALIDATION_BATCH);
    const checked = await Promise.all(batch.map(async (candidate) => ((await workspace.locate(candidate, 'read')).ok ? candidate : undefined)));
    for (const candidate of checked) if (candidate !== undefined) paths.push(candidate);
  }
  paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { paths, incomplete };
}

function direntLike(name: string, kind: string): Dirent {
  return {
    name,
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'directory',
    isSymbolicLink: () => kind === 'symlink',
    isBlockDevice: () => false,
    isCharacterDevice: () => false,
    isFIFO: () => false,
    isSocket: () => false,
  } as Dirent;
}

// The crawl never follows links, so the library has no reason to stat or realpath; if it tried, it gets an error.
function refuseAsync(..._args: unknown[]): void {
  const callback = _args[_args.length - 1];
  if (typeof callback === 'function') queueMicrotask(() => callback(new Error('tools-fs: not supported while globbing')));
}

function refuseSync(): never {
  throw new Error('tools-fs: synchronous file system access is not supported while globbing');
}
