import { ToolCallError } from '@weir/core';

/**
 * The stable error codes of tools-fs. The model reads them in error results; policies and tests
 * key on them. Messages name paths relative to the workspace root and never anything outside it.
 */
export type FsErrorCode =
  /** The path is malformed: empty, NUL byte, control characters, `~`, a URI, a Windows form, too long. */
  | 'INVALID_PATH'
  /** The path (after following symbolic links) is outside the workspace root. */
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'NOT_FOUND'
  | 'IS_A_DIRECTORY'
  | 'NOT_A_DIRECTORY'
  /** A FIFO, socket or device: never opened for reading or replaced by a write. */
  | 'NOT_A_REGULAR_FILE'
  /** A symbolic link whose target does not exist. */
  | 'BROKEN_SYMLINK'
  /** Too many levels of symbolic links (`ELOOP`). */
  | 'SYMLINK_LOOP'
  | 'ACCESS_DENIED'
  /** A write to a file that has other hard links: the other names could be outside the workspace. */
  | 'HARD_LINKED'
  /** The file or one of its directories changed between the check and the use; nothing was read or written. */
  | 'PATH_CHANGED'
  /** A safety rule refuses the physical path the tool was about to open (checked again at the body). */
  | 'DENIED_BY_POLICY'
  /** A protected path (`.git/`, editor and harness configuration) that this call was not approved for. */
  | 'PROTECTED_PATH'
  | 'TOO_LARGE'
  | 'BINARY_FILE'
  /** edit_file: the text to replace does not occur. */
  | 'NO_MATCH'
  /** edit_file: the text to replace occurs more than once and `replace_all` was not set. */
  | 'AMBIGUOUS_MATCH'
  /** write_file, edit_file: the file's encoding (Latin-1) cannot hold a character of the new text. */
  | 'UNENCODABLE'
  /** write_file, edit_file: the file exists and was not read in this session; read it first. */
  | 'NOT_READ'
  /** write_file, edit_file: the file changed since it was last read; read it again. */
  | 'STALE_READ'
  /** A glob or regular expression that cannot be used. */
  | 'INVALID_PATTERN'
  /** The regular expression ran too long on one file (catastrophic backtracking). */
  | 'PATTERN_TIMEOUT'
  /** Any other file system failure (disk full, I/O error...). */
  | 'FS_ERROR';

/** A refused path: the failing half of `PathResolution`, with a tools-fs code. */
export interface FsRefusal {
  readonly ok: false;
  readonly code: FsErrorCode;
  readonly message: string;
}

/** Builds a refusal. Never throws. */
export function refusal(code: FsErrorCode, message: string): FsRefusal {
  return { ok: false, code, message };
}

/**
 * The error a tools-fs body throws to fail with one of its codes; the pipeline turns it into an
 * error result the model reads. Never retried.
 */
export class FsError extends ToolCallError {
  declare readonly code: FsErrorCode;

  constructor(code: FsErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }

  /** The error for a refusal returned by the resolver. */
  static from(refused: FsRefusal): FsError {
    return new FsError(refused.code, refused.message);
  }
}

/**
 * The `code` of a Node.js system error (`ENOENT`...), or `undefined` for anything else, including
 * errors that carry a `code` of another kind (`FsError`, `ERR_*`). Never throws.
 */
export function errnoCode(error: unknown): string | undefined {
  const candidate = error as { code?: unknown; errno?: unknown } | null;
  if (typeof candidate !== 'object' || candidate === null || error instanceof ToolCallError) return undefined;
  return typeof candidate.code === 'string' && typeof candidate.errno === 'number' ? candidate.code : undefined;
}

/**
 * Translates a system error into a refusal about `display` (a path as the model named it, already
 * quoted). Node's own messages name absolute paths, so they are never passed on. Never throws.
 */
export function errnoRefusal(error: unknown, display: string): FsRefusal {
  const code = errnoCode(error);
  switch (code) {
    case 'ENOENT':
      return refusal('NOT_FOUND', `${display} does not exist.`);
    case 'ENOTDIR':
      return refusal('NOT_A_DIRECTORY', `${display} goes through something that is not a directory.`);
    case 'EISDIR':
      return refusal('IS_A_DIRECTORY', `${display} is a directory.`);
    case 'ELOOP':
      return refusal('SYMLINK_LOOP', `${display} goes through too many levels of symbolic links (a cycle?).`);
    case 'EACCES':
    case 'EPERM':
      return refusal('ACCESS_DENIED', `Permission denied for ${display}.`);
    case 'ENAMETOOLONG':
      return refusal('INVALID_PATH', `${display} is too long for the file system.`);
    case 'ENOSPC':
    case 'EDQUOT':
      return refusal('FS_ERROR', `No space left to write ${display}.`);
    case 'EROFS':
      return refusal('FS_ERROR', `${display} is on a read-only file system.`);
    case 'ENXIO':
    case 'ENODEV':
      return refusal('NOT_A_REGULAR_FILE', `${display} is not a regular file.`);
    default:
      return refusal('FS_ERROR', `The file system failed on ${display}${code === undefined ? '' : ` (${code})`}.`);
  }
}

/** `JSON.stringify` of a path: quoted, with control characters escaped, for messages. */
export function quote(path: string): string {
  return JSON.stringify(path);
}
