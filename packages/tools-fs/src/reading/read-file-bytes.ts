import { FsError } from '../fs-error.js';
import type { OpenedFile } from '../confinement/workspace.js';

/**
 * The bytes of an open file, up to the size `fstat` gave at open (a file that grows meanwhile is
 * read up to that size). Throws `FsError('TOO_LARGE')` over `maxBytes`.
 */
export async function readFileBytes(file: OpenedFile, maxBytes: number, display: string): Promise<Buffer> {
  if (file.stat.size > BigInt(maxBytes)) throw new FsError('TOO_LARGE', `${display} is ${file.stat.size} bytes, over the ${maxBytes}-byte limit.`);
  const size = Number(file.stat.size);
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await file.handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
