import { quote, refusal, type FsRefusal } from '../fs-error.js';
import { WINDOWS_FORM_DESCRIPTIONS, windowsPathForm } from './windows-path-form.js';

/** Linux's PATH_MAX: a longer path cannot be opened anyway, so it is refused before any call. */
export const MAX_PATH_BYTES = 4096;
/** Linux's NAME_MAX for one component. */
export const MAX_NAME_BYTES = 255;

// C0 and C1 controls and DEL: a newline in a path could forge lines in a listing or an approval prompt.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Bidirectional overrides and invisible characters: they make a name read as another (`invoice\u202Etxt.exe`).
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const URI = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The lexical rules every path passes before it touches the file system (docs/reliability.md 1.1 rules 7
 * and 8): a string, not blank, no NUL or control or invisible characters, no `~`, no URI, no
 * Windows form, within PATH_MAX and NAME_MAX. Nothing is expanded: `$HOME`, `%VAR%` and `%2F`
 * stay literal characters. Returns the refusal (`INVALID_PATH`), or `undefined` when the syntax
 * is acceptable. Never throws.
 */
export function checkPathSyntax(input: unknown): FsRefusal | undefined {
  if (typeof input !== 'string') return refusal('INVALID_PATH', `A path must be a string, got ${input === null ? 'null' : typeof input}.`);
  if (input.includes('\u0000')) return refusal('INVALID_PATH', `${quote(input)} contains a NUL byte, which no file name can hold.`);
  if (input.trim() === '') {
    return refusal('INVALID_PATH', 'The path is empty. Name a file or directory relative to the workspace root; use "." for the root itself.');
  }
  if (CONTROL.test(input)) return refusal('INVALID_PATH', `${quote(input)} contains control characters; file names with them are not supported.`);
  if (INVISIBLE.test(input)) {
    return refusal('INVALID_PATH', `${quote(input)} contains invisible or bidirectional-override characters that make a name look like another; they are not supported.`);
  }
  if (URI.test(input)) return refusal('INVALID_PATH', `${quote(input)} is a URI, not a path. Give the path itself, relative to the workspace root.`);
  if (input.startsWith('~')) {
    return refusal('INVALID_PATH', `${quote(input)} starts with "~": home directories are not expanded and are outside the workspace. Give a path relative to the workspace root.`);
  }
  const form = windowsPathForm(input);
  if (form !== undefined) {
    return refusal('INVALID_PATH', `${quote(input)} contains ${WINDOWS_FORM_DESCRIPTIONS[form]}. Use a POSIX path relative to the workspace root, with "/" as the separator.`);
  }
  if (Buffer.byteLength(input) > MAX_PATH_BYTES) return refusal('INVALID_PATH', `The path is longer than ${MAX_PATH_BYTES} bytes.`);
  if (input.split('/').some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
    return refusal('INVALID_PATH', `A name in the path is longer than ${MAX_NAME_BYTES} bytes.`);
  }
  return undefined;
}
