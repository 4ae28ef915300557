import { readFileBytes } from './read-file-bytes.js';
import { decodeText, type DecodedText } from './text-format.js';
import type { OpenedFile } from '../confinement/workspace.js';

/**
 * The whole content of an open file as text, with its format (encoding, byte-order mark, line
 * endings) and its bytes. Throws `FsError('TOO_LARGE')` over `maxBytes` and
 * `FsError('BINARY_FILE')` on a NUL byte.
 */
export async function readWholeText(file: OpenedFile, maxBytes: number, display: string): Promise<DecodedText & { readonly bytes: Buffer }> {
  const bytes = await readFileBytes(file, maxBytes, display);
  return { ...decodeText(bytes, display), bytes };
}
