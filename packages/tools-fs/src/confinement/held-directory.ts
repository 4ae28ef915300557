/**
 * How children of an open directory are named. `proc` (Linux): through `/proc/self/fd/N/name`,
 * which the kernel resolves from the directory the descriptor holds, the way `openat(2)` would,
 * so renaming or swapping a parent after it was opened changes nothing. `path`: by canonical
 * path, which leaves a window between the check and the use (see the README).
 */
export type OpenStrategy = 'proc' | 'path';

/** A directory held open by a walk, whatever holds it (see `OpenDirectory`, `FdDirectory`). */
export interface HeldDirectory {
  /** The canonical absolute path it had when it was reached. */
  readonly path: string;
  readonly strategy: OpenStrategy;
  /** The descriptor that holds it. */
  readonly fd: number;
  /** A path naming `name` in exactly this directory (`/proc/self/fd/N/name` for `proc`). Pure. */
  child(name: string): string;
  /** The path `readdir` should read: this very directory. Pure. */
  readonly listingPath: string;
}

/** `name` in `directory`: through its descriptor for `proc`, by canonical path for `path`. Pure. */
export function childPath(directory: { readonly fd: number; readonly path: string; readonly strategy: OpenStrategy }, name: string): string {
  if (directory.strategy === 'proc') return `/proc/self/fd/${directory.fd}/${name}`;
  return directory.path === '/' ? `/${name}` : `${directory.path}/${name}`;
}
