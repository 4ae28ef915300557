import { quote } from '../fs-error.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import type { HeldDirectory } from '../confinement/held-directory.js';
import { openSubdirectorySync, readDirectorySync } from './fd-directory.js';
import type { Located } from '../confinement/locate-physical.js';
import { WalkRules, type DirectoryVisitor, type IgnoreLevel, type WalkedFile, type WalkOptions } from './walk-rules.js';

export type { DirectoryVisitor, WalkedFile, WalkOptions };

/**
 * Walks the files under `start` the way ripgrep does: `.gitignore` files (nested ones too),
 * `.ignore` and `.rgignore` respected (with their rules for the directories above `start`,
 * inside the root), hidden names skipped, symbolic links never followed, `.git` never entered
 * unless the glob names it (see `WalkRules`). Every directory is opened no-follow beneath the one
 * that listed it and checked to be inside the root; files are handed to `visit` with their
 * directory open. Returns whether the crawl stopped at its cap. Throws `FsError`.
 */
export async function walkFiles(deps: FsToolDeps, start: Located, options: WalkOptions, visit: DirectoryVisitor): Promise<{ readonly incomplete: boolean }> {
  const { workspace, limits } = deps;
  const rules = await WalkRules.create(start.relativePath, options);
  let crawled = 0;
  let incomplete = false;

  const levels = await rules.ancestorScope(deps, start.relativePath);

  // Synchronous steps (see `FdDirectory`); the visitor yields to the event loop between directories.
  const walk = async (directory: HeldDirectory, relative: string, inherited: readonly IgnoreLevel[]): Promise<void> => {
    options.signal.throwIfAborted();
    const listing = readDirectorySync(directory, limits.maxDirectoryNames, options.signal);
    crawled += listing.entries.length;
    if (!listing.complete) incomplete = true;
    const scope = rules.scopeIn(directory, listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name), relative, inherited);
    const files: WalkedFile[] = [];
    const directories: string[] = [];
    for (const { name, kind } of listing.entries) {
      const relativePath = relative === '.' ? name : `${relative}/${name}`;
      if (kind === 'directory') {
        if (rules.entersDirectory(name, relativePath, scope)) directories.push(name);
      } else if (kind === 'file') {
        if (rules.includesFile(name, relativePath, scope)) files.push({ name, relativePath });
      }
    }
    if (files.length > 0) await visit(directory, files);
    for (const name of directories) {
      if (crawled > limits.maxCrawlEntries) {
        incomplete = true;
        return;
      }
      const relativePath = relative === '.' ? name : `${relative}/${name}`;
      // Replaced by a link or removed since it was listed: not followed, not searched.
      const child = openSubdirectorySync(directory, name);
      if (child === undefined) continue;
      try {
        workspace.assertInsideSync(child.fd, quote(relativePath));
        await walk(child, relativePath, scope);
      } finally {
        child.close();
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
