import type { FileHandle } from 'node:fs/promises';
import { FsError } from '../fs-error.js';
import { finish, LineWindow, type LinesRead, type WindowBounds } from './line-window.js';
import type { TextEncoding } from './text-format.js';

const CHUNK_BYTES = 64 * 1024;

/** Which lines `readTextLines` returns, and its caps. */
export interface ReadLinesOptions extends WindowBounds {
  /** Cap on the bytes read to reach `offset` and the lines after it. */
  readonly maxScanBytes: number;
  /** The path as the model named it, quoted, for messages. */
  readonly display: string;
  readonly signal?: AbortSignal;
}

/** A window of a file read by streaming, and the encoding it was read in. */
export interface StreamedLines extends LinesRead {
  readonly encoding: TextEncoding;
}

/**
 * Streams a file too large to hold and returns a window of its lines (each cut at
 * `maxLineChars`, the whole under `maxBytes`), holding no more than that in memory: a 10 GB
 * line costs no more than a short one. UTF-8 first; when the bytes read are not UTF-8, the
 * window is read again as Latin-1 (every byte one character). A byte-order mark is dropped.
 * Throws `FsError('BINARY_FILE')` on a NUL byte in what it reads and `FsError('TOO_LARGE')`
 * past `maxScanBytes`.
 */
export async function readTextLines(handle: FileHandle, options: ReadLinesOptions): Promise<StreamedLines> {
  try {
    return await scan(handle, options, 'utf-8');
  } catch (error) {
    if (error instanceof NotUtf8) return scan(handle, options, 'latin1');
    throw error;
  }
}

class NotUtf8 extends Error {}

async function scan(handle: FileHandle, options: ReadLinesOptions, encoding: TextEncoding): Promise<StreamedLines> {
  const decoder = encoding === 'utf-8' ? new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }) : undefined;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const window = new LineWindow(options);
  let position = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    if (position >= options.maxScanBytes) {
      throw new FsError('TOO_LARGE', `Reaching line ${options.offset} of ${options.display} means reading more than ${options.maxScanBytes} bytes. Use search_files to find the lines you need.`);
    }
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    const chunk = buffer.subarray(0, bytesRead);
    if (chunk.includes(0)) throw new FsError('BINARY_FILE', `${options.display} contains NUL bytes: it is binary, not text, so it is not shown.`);
    let text: string;
    if (decoder === undefined) {
      text = chunk.toString('latin1');
    } else {
      try {
        text = bytesRead === 0 ? decoder.decode() : decoder.decode(chunk, { stream: true });
      } catch {
        throw new NotUtf8();
      }
    }
    position += bytesRead;
    let start = 0;
    while (!window.closed) {
      const newline = text.indexOf('\n', start);
      window.span(text, start, newline === -1 ? text.length : newline);
      if (newline === -1) break;
      window.newline();
      start = newline + 1;
    }
    if (bytesRead === 0) return { ...finish(window, options, window.end()), encoding };
    if (window.closed) {
      const more = start < text.length || (await handle.read(buffer, 0, 1, position)).bytesRead > 0;
      const lines = finish(window, options, undefined);
      return { ...lines, more: more || lines.endLine < window.currentLine - 1, encoding };
    }
  }
}
