/**
 * The seam between a policy and a tool body that opens paths itself (the tools-fs tools): before
 * the body reads, lists or writes a physical path, it asks `exec.fileAccess.check(relativePath)`
 * with the canonical path it is about to open, relative to the sandbox root (`.` for the root).
 * A refusal means: do not touch it (a reading tool over a directory leaves the entry out; a tool
 * named on that path fails). safety sets it on `exec` through its execute-stage wrapper, for
 * every call, in every mode. A body without it (no safety loaded) has nothing to ask.
 *
 * Why: the guard decides on the path as resolved before the call runs, and a person may be asked
 * for minutes. A link swapped meanwhile, or a directory that holds a denied file, would otherwise
 * lead the body somewhere the rules never saw.
 */
export interface FileAccess {
  check(relativePath: string): FileAccessVerdict;
}

/** `allowed: false` carries the reason, written for the model. */
export type FileAccessVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** The property of `exec` that carries the `FileAccess` of the call. */
export const FILE_ACCESS_PROPERTY = 'fileAccess';
