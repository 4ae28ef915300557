import { FsError } from './fs-error.js';
import type { OpenedFile } from './workspace.js';

/**
 * The whole content of an open file as UTF-8 text (a byte-order mark kept). Throws
 * `FsError('TOO_LARGE')` over `maxBytes`, and `FsError('BINARY_FILE')` on a NUL byte or
 * malformed UTF-8.
 */
export async function readWholeText(file: OpenedFile, maxBytes: number, display: string): Promise<string> {
  if (file.stat.size > BigInt(maxBytes)) throw new FsError('TOO_LARGE', `${display} is ${file.stat.size} bytes, over the ${maxBytes}-byte limit.`);
  const size = Number(file.stat.size);
  const buffer = Buffer.alloc(size);
  let filled = 0;
  // Bounded by the size seen at open: a file that grows meanwhile is read up to that size.
  while (filled < size) {
    const { bytesRead } = await file.handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  const bytes = buffer.subarray(0, filled);
  try {
    if (bytes.includes(0)) throw new TypeError('NUL byte');
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // A NUL byte (ours) or malformed UTF-8 (TextDecoder's only failure): binary.
    throw new FsError('BINARY_FILE', `${display} is not UTF-8 text (it looks binary).`);
  }
}
