import { quote } from '../fs-error.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import type { HeldDirectory } from '../confinement/held-directory.js';
import { openSubdirectorySync } from './fd-directory.js';
import type { Located } from '../confinement/locate-physical.js';
import { WalkRules, type DirectoryVisitor, type IgnoreLevel, type WalkedFile, type WalkOptions } from './walk-rules.js';

interface Folder {
  readonly files: Set<string>;
  readonly folders: Map<string, Folder>;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Walks only along `candidates` (paths relative to `start`, as another engine listed them): the
 * same rules as `walkFiles` (`WalkRules`: ignore files, hidden names, `.git`, `node_modules`, the
 * glob) and the same confinement, without listing any directory. Each name of a candidate path
 * is checked again (no empty, `.` or `..` name: such a path is dropped), each directory on it is
 * opened no-follow beneath its parent and checked to be inside the root, its ignore files are
 * looked up by name, and the files are handed to `visit` with their directory open, in the order
 * `walkFiles` would visit them (a directory's files by name, then its subdirectories by name). A
 * directory that is now a link, a file or gone is skipped. Throws `FsError`.
 */
export async function walkCandidates(deps: FsToolDeps, start: Located, candidates: Iterable<string>, options: WalkOptions, visit: DirectoryVisitor): Promise<void> {
  const { workspace } = deps;
  const rules = await WalkRules.create(start.relativePath, options);
  const tree = folderOf(candidates);
  if (tree.files.size === 0 && tree.folders.size === 0) return;
  const levels = await rules.ancestorScope(deps, start.relativePath);

  const walk = async (directory: HeldDirectory, relative: string, folder: Folder, inherited: readonly IgnoreLevel[]): Promise<void> => {
    options.signal.throwIfAborted();
    const scope = rules.scopeInUnlisted(directory, relative, inherited);
    const files: WalkedFile[] = [];
    for (const name of [...folder.files].sort(byCodeUnits)) {
      const relativePath = relative === '.' ? name : `${relative}/${name}`;
      if (rules.includesFile(name, relativePath, scope)) files.push({ name, relativePath });
    }
    if (files.length > 0) await visit(directory, files);
    for (const name of [...folder.folders.keys()].sort(byCodeUnits)) {
      const relativePath = relative === '.' ? name : `${relative}/${name}`;
      if (!rules.entersDirectory(name, relativePath, scope)) continue;
      // A link, a file or nothing there now: not followed, not searched.
      const child = openSubdirectorySync(directory, name);
      if (child === undefined) continue;
      try {
        workspace.assertInsideSync(child.fd, quote(relativePath));
        await walk(child, relativePath, folder.folders.get(name)!, scope);
      } finally {
        child.close();
      }
    }
  };

  const top = await workspace.openDirectory(start, quote(start.relativePath));
  try {
    await walk(top, start.relativePath, tree, levels);
  } finally {
    await top.close();
  }
}

// The candidates as a tree of names; a path with an empty, `.` or `..` name (or a NUL) is dropped.
function folderOf(candidates: Iterable<string>): Folder {
  const root: Folder = { files: new Set(), folders: new Map() };
  for (const candidate of candidates) {
    const names = candidate.split('/');
    if (names.some((name) => name === '' || name === '.' || name === '..' || name.includes('\0'))) continue;
    let folder = root;
    for (let index = 0; index < names.length - 1; index += 1) {
      const name = names[index]!;
      let next = folder.folders.get(name);
      if (next === undefined) {
        next = { files: new Set(), folders: new Map() };
        folder.folders.set(name, next);
      }
      folder = next;
    }
    folder.files.add(names[names.length - 1]!);
  }
  return root;
}
