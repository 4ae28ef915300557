import { fstatSync, type Stats } from 'node:fs';
import { quote } from '../fs-error.js';
import type { Workspace } from '../confinement/workspace.js';
import type { HeldDirectory } from '../confinement/held-directory.js';
import { openSubdirectorySync, readDirectorySync, readHeldFileSync } from '../walking/fd-directory.js';
import { IGNORE_FILES, WalkRules, type IgnoreLevel } from '../walking/walk-rules.js';
import { lstatQuietly, sameStamp, stampOf, type FileStamp } from './file-stamp.js';

/** What one walk is told and tells. */
export interface SnapshotWalk {
  /** Directories (relative to the root) never entered. */
  readonly skip: ReadonlySet<string>;
  /** Most files the walk includes; past it, it stops (`capped`). */
  readonly maxFiles: number;
  /** Stops the walk between directories and files (it throws the reason). */
  readonly signal: AbortSignal;
  /** How soon after a directory's change time a listing of it is not trusted again (see `Listing.racy`); asked as each listing is kept. */
  readonly marginMs: () => number;
  /** True when the snapshot knows `path` with this very stamp and trusts it. Pure. */
  readonly unchanged: (path: string, stamp: FileStamp) => boolean;
  /** Every included regular file the walk found, with its stamp, once per walk. */
  readonly found: (path: string, stamp: FileStamp) => void;
  /** Each file found whose stamp is not `unchanged`: its `lstat` beneath its held directory, and a read of its bytes there (no link followed; `undefined` when it cannot be read or is over `maxBytes`). */
  readonly changed: (path: string, info: Stats, read: (maxBytes: number) => Buffer | undefined) => Promise<void>;
  /** Awaited between directories and every so many files (the background baseline lets the event loop run). */
  readonly pause?: () => Promise<void>;
}

/** One directory as the last walk listed it. */
interface Listing {
  /** The directory's own stamp, taken before it was read: an entry added, removed or renamed since changes it. */
  readonly stamp: FileStamp;
  /** Read within the margin of the directory's change time: a later change in the same clock tick would not show, so it is listed again. */
  readonly racy: boolean;
  /** How many names it held (for the crawl cap). */
  readonly names: number;
  /** The regular files the rules include (relative to the root, and absolute: built once, not per walk), and the directories they enter. */
  readonly files: readonly string[];
  readonly absoluteFiles: readonly string[];
  readonly directories: readonly string[];
  /** The rules it was listed under, and those in force below it (its own ignore files added). */
  readonly inherited: readonly IgnoreLevel[];
  readonly scope: readonly IgnoreLevel[];
  /** Its ignore files' stamps: a changed one changes the rules, not the directory's stamp. */
  readonly ignoreFiles: ReadonlyMap<string, FileStamp>;
}

/** A directory the walk holds open, whichever way it was opened. */
type Held = HeldDirectory & { close(): unknown };

const FILES_PER_PAUSE = 50;
const STOP = Symbol('stop');
/** The rules above the root: none. One object, so the root's listing is kept from walk to walk. */
const NO_RULES: readonly IgnoreLevel[] = Object.freeze([]);

/**
 * The workspace walk of the shell snapshot, with the rules of `find_files` (`WalkRules`: ignore
 * files, `.git` and `node_modules` not entered, hidden files included, links never followed), and a
 * memory of each directory's listing. A directory whose stamp, ignore files and inherited rules are
 * as the last walk left them, and all of whose files have the stamps the snapshot knows, is checked
 * with one `lstat` per name by canonical path and nothing else (no `open`, no `readdir`, no rule
 * matched): about half of a listing walk, which is what a command of a 10,000-file workspace costs.
 * Those `lstat`s are hints only: the same stamps mean the same inodes, so the same bytes, whatever
 * path reached them; any other answer sends the directory to a listing walk, which opens it
 * no-follow beneath its parent (or through the workspace's confined `locate`), checks it is inside
 * the root, and decides beneath the held directory, as `walkFiles` does.
 */
export class SnapshotWalker {
  readonly #workspace: Workspace;
  readonly #maxDirectoryNames: number;
  readonly #maxCrawlEntries: number;
  readonly #listings = new Map<string, Listing>();

  constructor(workspace: Workspace, limits: { readonly maxDirectoryNames: number; readonly maxCrawlEntries: number }) {
    this.#workspace = workspace;
    this.#maxDirectoryNames = limits.maxDirectoryNames;
    this.#maxCrawlEntries = limits.maxCrawlEntries;
  }

  /** Walks the whole workspace. `complete` is false when a cap or a directory too large stopped it short (what it did not reach says nothing). Throws `FsError`, and `walk.signal`'s reason. */
  async walk(walk: SnapshotWalk): Promise<{ readonly complete: boolean; readonly capped: boolean }> {
    const rules = await WalkRules.create('.', { glob: undefined, hidden: true, includeIgnored: false, signal: walk.signal, skip: walk.skip });
    const state = { files: 0, crawled: 0, complete: true, capped: false, sincePause: 0 };
    const root = this.#workspace.root;
    const absolute = (relative: string) => (relative === '.' ? root : root === '/' ? `/${relative}` : `${root}/${relative}`);
    const joined = (relative: string, name: string) => (relative === '.' ? name : `${relative}/${name}`);
    const pause = async () => {
      state.sincePause = 0;
      if (walk.pause !== undefined) await walk.pause();
    };

    /** The directory as listed last time, when nothing in it changed: its files counted, its stamps handed on. */
    const unchangedListing = (relative: string, inherited: readonly IgnoreLevel[]): Listing | undefined => {
      const listing = this.#listings.get(relative);
      if (listing === undefined || listing.racy || listing.inherited !== inherited) return undefined;
      const directory = lstatQuietly(absolute(relative));
      if (directory === undefined || !directory.isDirectory() || !sameStamp(directory, listing.stamp)) return undefined;
      for (const [name, stamp] of listing.ignoreFiles) {
        const info = lstatQuietly(absolute(joined(relative, name)));
        if (info === undefined || !sameStamp(info, stamp)) return undefined;
      }
      if (state.files + listing.files.length > walk.maxFiles) return undefined;
      const { files, absoluteFiles } = listing;
      const stamps: FileStamp[] = [];
      for (let i = 0; i < files.length; i += 1) {
        const info = lstatQuietly(absoluteFiles[i]!);
        if (info === undefined || !info.isFile() || !walk.unchanged(files[i]!, info)) return undefined;
        stamps.push(info);
      }
      for (let i = 0; i < files.length; i += 1) walk.found(files[i]!, stamps[i]!);
      state.files += listing.files.length;
      return listing;
    };

    const visit = async (relative: string, inherited: readonly IgnoreLevel[], open: () => Held | undefined | Promise<Held | undefined>): Promise<void> => {
      walk.signal.throwIfAborted();
      if (walk.pause !== undefined) await pause();
      const listing = unchangedListing(relative, inherited);
      if (listing !== undefined) {
        state.crawled += listing.names;
        for (const name of listing.directories) {
          if (state.crawled > this.#maxCrawlEntries) return stop(state, false);
          const child = joined(relative, name);
          await visit(child, listing.scope, () => this.#openConfined(child));
        }
        return;
      }
      const directory = await open();
      // Replaced by a link or a file, or removed, since it was listed: not followed, not walked.
      if (directory === undefined) return;
      try {
        await listAndVisit(relative, inherited, directory);
      } finally {
        await directory.close();
      }
    };

    const listAndVisit = async (relative: string, inherited: readonly IgnoreLevel[], directory: HeldDirectory): Promise<void> => {
      const before = this.#listings.get(relative);
      const stamp = stampOf(fstatSync(directory.fd));
      const listedAt = Date.now();
      const listing = readDirectorySync(directory, this.#maxDirectoryNames, walk.signal);
      state.crawled += listing.entries.length;
      if (!listing.complete) state.complete = false;
      const fileNames = listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name);
      const ignoreFiles = new Map<string, FileStamp>();
      for (const name of IGNORE_FILES) {
        if (!fileNames.includes(name)) continue;
        const info = lstatQuietly(directory.child(name));
        if (info !== undefined) ignoreFiles.set(name, stampOf(info));
      }
      // The same rules as last time keep the same scope object: the directories below stay listed.
      const sameRules = before !== undefined && before.inherited === inherited && sameIgnoreFiles(before.ignoreFiles, ignoreFiles);
      const scope = sameRules ? before.scope : rules.scopeIn(directory, fileNames, relative, inherited);
      const files: string[] = [];
      const directories: string[] = [];
      for (const { name, kind } of listing.entries) {
        const path = joined(relative, name);
        if (kind === 'directory') {
          if (rules.entersDirectory(name, path, scope)) directories.push(name);
        } else if (kind === 'file' && rules.includesFile(name, path, scope)) files.push(name);
      }
      const paths = files.map((name) => joined(relative, name));
      const absoluteFiles = paths.map(absolute);
      for (let i = 0; i < files.length; i += 1) {
        if (state.files >= walk.maxFiles) return stop(state, true);
        if (walk.pause !== undefined && ++state.sincePause >= FILES_PER_PAUSE) await pause();
        const name = files[i]!;
        const path = paths[i]!;
        const quick = lstatQuietly(absoluteFiles[i]!);
        if (quick !== undefined && quick.isFile() && walk.unchanged(path, quick)) {
          state.files += 1;
          walk.found(path, quick);
          continue;
        }
        const info = lstatQuietly(directory.child(name));
        if (info === undefined || !info.isFile()) continue;
        state.files += 1;
        walk.found(path, info);
        if (!walk.unchanged(path, info)) await walk.changed(path, info, (maxBytes) => readHeldFileSync(directory, name, maxBytes));
      }
      if (listing.complete) {
        this.#listings.set(relative, { stamp, racy: listedAt - stamp.ctimeMs < walk.marginMs(), names: listing.entries.length, files: paths, absoluteFiles, directories, inherited, scope, ignoreFiles });
      } else {
        this.#listings.delete(relative);
      }
      for (const name of directories) {
        if (state.crawled > this.#maxCrawlEntries) return stop(state, false);
        const child = joined(relative, name);
        await visit(child, scope, () => {
          const opened = openSubdirectorySync(directory, name);
          if (opened !== undefined) {
            try {
              this.#workspace.assertInsideSync(opened.fd, quote(child));
            } catch (error) {
              opened.close();
              throw error;
            }
          }
          return opened;
        });
      }
    };

    try {
      await visit('.', NO_RULES, () => this.#openConfined('.'));
    } catch (error) {
      if (error !== STOP) throw error;
    }
    return { complete: state.complete && !state.capped, capped: state.capped };
  }

  /** Opens `relative` through the workspace's confined `locate`; `undefined` when it is not (or no longer) a directory at that very path. */
  async #openConfined(relative: string): Promise<Held | undefined> {
    const located = await this.#workspace.locate(relative, 'list');
    // A link (even to a directory inside) is never followed: the located path must be the walked one.
    if (!located.ok || located.relativePath !== relative) return undefined;
    try {
      return await this.#workspace.openDirectory(located, quote(relative));
    } catch {
      return undefined;
    }
  }
}

function stop(state: { complete: boolean; capped: boolean }, capped: boolean): never {
  state.complete = false;
  if (capped) state.capped = true;
  throw STOP;
}

function sameIgnoreFiles(a: ReadonlyMap<string, FileStamp>, b: ReadonlyMap<string, FileStamp>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, stamp] of a) {
    const other = b.get(name);
    if (other === undefined || !sameStamp(stamp, other)) return false;
  }
  return true;
}
