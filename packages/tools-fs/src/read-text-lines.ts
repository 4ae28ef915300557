import type { FileHandle } from 'node:fs/promises';
import { FsError } from './fs-error.js';

const CHUNK_BYTES = 64 * 1024;

/** Which lines `readTextLines` returns, and its caps. */
export interface ReadLinesOptions {
  /** First line to return, 1-based. */
  readonly offset: number;
  /** Most lines to return. */
  readonly limit: number;
  /** Cap on the bytes returned; the text is cut on a character boundary past it. */
  readonly maxBytes: number;
  /** Cap on the bytes read to reach `offset` and the lines after it. */
  readonly maxScanBytes: number;
  /** The path as the model named it, quoted, for messages. */
  readonly display: string;
  readonly signal?: AbortSignal;
}

/** The lines read, and where they sit in the file. */
export interface TextLines {
  readonly text: string;
  /** 1-based number of the first line returned (`offset`). */
  readonly startLine: number;
  /** Number of the last line returned, at least partly; `startLine - 1` when none was. */
  readonly endLine: number;
  /** Lines in the file, when it was read to its end. */
  readonly totalLines: number | undefined;
  /** True when `maxBytes` cut the text, inside line `endLine`. */
  readonly truncated: boolean;
  /** True when lines follow `endLine`. */
  readonly more: boolean;
}

/**
 * Streams UTF-8 text from an open file and returns lines `offset` to `offset + limit - 1`,
 * holding at most `maxBytes` of them in memory (a 10 GB line costs no more than a short one).
 * Throws `FsError('BINARY_FILE')` on a NUL byte or invalid UTF-8 in what it reads, and
 * `FsError('TOO_LARGE')` past `maxScanBytes`. A byte-order mark is kept, so what is read is what
 * an edit writes back.
 */
export async function readTextLines(handle: FileHandle, options: ReadLinesOptions): Promise<TextLines> {
  const { offset, limit, maxBytes, display } = options;
  const lastWanted = offset + limit - 1;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const parts: string[] = [];
  let outBytes = 0;
  let line = 1;
  let lineHasText = false;
  let position = 0;
  let truncated = false;
  let done = false;
  let atEnd = false;
  // Whether decoded text was left unread after the last wanted line.
  let leftover = false;

  const take = (piece: string): void => {
    if (line < offset || line > lastWanted || piece === '') return;
    const bytes = Buffer.byteLength(piece);
    if (outBytes + bytes <= maxBytes) {
      parts.push(piece);
      outBytes += bytes;
      return;
    }
    parts.push(prefixWithin(piece, maxBytes - outBytes));
    truncated = true;
    done = true;
  };

  while (!done) {
    options.signal?.throwIfAborted();
    if (position >= options.maxScanBytes) {
      throw new FsError('TOO_LARGE', `Reaching line ${offset} of ${display} means reading more than ${options.maxScanBytes} bytes. Use search_files to find the lines you need.`);
    }
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    let text: string;
    try {
      if (bytesRead === 0) {
        atEnd = true;
        text = decoder.decode();
      } else {
        const chunk = buffer.subarray(0, bytesRead);
        if (chunk.includes(0)) throw new TypeError('NUL byte');
        text = decoder.decode(chunk, { stream: true });
      }
    } catch {
      // TextDecoder's only failure is malformed input, and a NUL byte is ours: both mean binary.
      throw new FsError('BINARY_FILE', `${display} is not UTF-8 text (it looks binary), so it is not shown.`);
    }
    position += bytesRead;
    let start = 0;
    while (!done && start < text.length) {
      const newline = text.indexOf('\n', start);
      const piece = newline === -1 ? text.slice(start) : text.slice(start, newline);
      if (piece !== '') lineHasText = true;
      take(piece);
      if (newline === -1 || done) break;
      take('\n');
      line += 1;
      lineHasText = false;
      start = newline + 1;
      if (line > lastWanted) {
        done = true;
        leftover = start < text.length;
      }
    }
    if (atEnd) done = true;
  }

  const totalLines = atEnd ? (lineHasText ? line : line - 1) : undefined;
  let endLine: number;
  let more: boolean;
  if (truncated) {
    endLine = line;
    more = true;
  } else if (totalLines !== undefined) {
    endLine = Math.max(Math.min(lastWanted, totalLines), offset - 1);
    more = endLine < totalLines;
  } else {
    endLine = lastWanted;
    more = leftover || (await handle.read(buffer, 0, 1, position)).bytesRead > 0;
  }
  return { text: parts.join(''), startLine: offset, endLine, totalLines, truncated, more };
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, cut between code points. */
function prefixWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = Buffer.byteLength(character);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}
