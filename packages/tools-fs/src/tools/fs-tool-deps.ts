import type { ProtectionDeps } from '../confinement/protected-path-guard.js';
import type { PathLocks } from '../editing/path-locks.js';
import type { ReadLedger } from '../editing/read-ledger.js';
import type { Workspace } from '../confinement/workspace.js';
import type { TextSource } from './text-source.js';

/** The caps every tool respects, so no call can put unbounded data into the transcript. */
export interface FsLimits {
  /** read_file: largest file read whole, and most bytes one call returns. */
  readonly maxReadBytes: number;
  /** list_dir, find_files, search_files: most entries or matches in one result. */
  readonly maxEntries: number;
  /** read_file: largest image returned (PNG, JPEG, GIF, WebP, known by their bytes). */
  readonly maxImageBytes: number;
  /** read_file: longer lines are cut to this many characters. */
  readonly maxReadLineChars: number;
  /** read_file: most bytes read to reach a line `offset`. */
  readonly maxScanBytes: number;
  /** edit_file: largest file edited (it is read whole). */
  readonly maxEditBytes: number;
  /** search_files: larger files are skipped. */
  readonly maxSearchFileBytes: number;
  /** list_dir, find_files, search_files: most names read from one directory. */
  readonly maxDirectoryNames: number;
  /** find_files, search_files: most directory entries crawled in one call. */
  readonly maxCrawlEntries: number;
  /** search_files: time budget of the expression on one file. */
  readonly regexTimeoutMs: number;
  /** search_files: matching lines are cut to this many characters. */
  readonly maxLineChars: number;
}

/** What every tool body of the plugin shares. */
export interface FsToolDeps {
  readonly workspace: Workspace;
  readonly limits: FsLimits;
  readonly protection: ProtectionDeps;
  /** One lock per canonical path: writes to one file run one after the other. */
  readonly locks: PathLocks;
  /** What the model has read in this session: writes need a current read. */
  readonly reads: ReadLedger;
  /** search_files may use ripgrep (when installed) to list candidate files. */
  readonly ripgrep: boolean;
  /** read_file, write_file, edit_file: the text of a file where it is not the disk's (an editor's buffers). */
  readonly textSource?: TextSource | undefined;
  /** The root as the options gave it, absolute: what paths given to `textSource` start with. */
  readonly sourceRoot: string;
}
