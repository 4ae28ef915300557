import { lstatSync, type Stats } from 'node:fs';

/**
 * How a file looked to one `lstat`: enough to tell that it changed without reading it. The change
 * time is set by the kernel on every write, rename or chmod, and no command can set it back, so a
 * change that keeps the size and the modification time (`touch -r`) still changes the stamp.
 * Times are the `lstat`'s milliseconds as numbers (sub-millisecond digits kept to a quarter of a
 * microsecond, finer than the kernel's file clock): a number `lstat` costs about half a bigint one,
 * which is most of a walk of 10,000 files.
 */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

/** The stamp of an `lstat`. Pure. */
export function stampOf(info: Stats): FileStamp {
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino };
}

/** True when two stamps are the same in every field. Pure. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** The `lstat` of `path` (links not followed); `undefined` when it is missing or cannot be stat'ed. Never throws. */
export function lstatQuietly(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
