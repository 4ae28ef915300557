/** One line of a read window. */
export interface WindowLine {
  /** 1-based line number. */
  readonly number: number;
  /** The line without its line ending, at most `maxLineChars` characters. */
  readonly text: string;
  /** The line's full length in characters, when it was cut; `undefined` when shown whole. */
  readonly cutFrom?: number;
}

/** Where a window of lines sits in its file. */
export interface LinesRead {
  readonly lines: readonly WindowLine[];
  readonly startLine: number;
  /** The last line shown; `startLine - 1` when none was. */
  readonly endLine: number;
  /** Lines in the file, when known (the file was read to its end). */
  readonly totalLines: number | undefined;
  /** Lines follow `endLine`. */
  readonly more: boolean;
}

/** Bounds of a window. */
export interface WindowBounds {
  readonly offset: number;
  readonly limit: number;
  /** A longer line is cut to this many characters. */
  readonly maxLineChars: number;
  /** Most bytes (UTF-8) of shown text, line numbers included; the window ends before a line that does not fit. */
  readonly maxBytes: number;
}

// Bytes each line costs besides its text: the number column and the tab (`cat -n` shape).
const NUMBER_COLUMN_BYTES = 8;

/**
 * Collects the lines of a window from text fed in pieces, holding at most `maxLineChars` of any
 * line, so a file made of one 2 GB line costs no more than a short one. Feed `piece` for text
 * without a line feed and `newline` for each line feed; then read `closed` to know when to stop.
 */
export class LineWindow {
  readonly #bounds: WindowBounds;
  readonly lines: WindowLine[] = [];
  #line = 1;
  #prefix = '';
  #length = 0;
  #bytes = 0;
  #closed = false;
  #lineHasText = false;

  constructor(bounds: WindowBounds) {
    this.#bounds = bounds;
  }

  /** No more lines are wanted (the limit, or the byte budget, was reached). */
  get closed(): boolean {
    return this.#closed;
  }

  /** The number of the line being fed. */
  get currentLine(): number {
    return this.#line;
  }

  /** Characters `from` to `to` of `text`: part of the current line, no line feed. Copies only what is shown. */
  span(text: string, from: number, to: number): void {
    if (this.#closed || to <= from) return;
    this.#lineHasText = true;
    if (!this.#wanted()) return;
    const room = this.#bounds.maxLineChars + 1 - this.#prefix.length;
    if (room > 0) this.#prefix += text.slice(from, Math.min(to, from + room));
    this.#length += to - from;
  }

  newline(): void {
    if (this.#closed) return;
    this.#finishLine();
    this.#line += 1;
    this.#lineHasText = false;
    if (this.#line >= this.#bounds.offset + this.#bounds.limit) this.#closed = true;
  }

  /** The file ended: the last line (if it had text) is finished. Returns the total line count. */
  end(): number {
    const total = this.#lineHasText ? this.#line : this.#line - 1;
    if (!this.#closed && this.#lineHasText) this.#finishLine();
    this.#closed = true;
    return total;
  }

  #wanted(): boolean {
    return this.#line >= this.#bounds.offset && this.#line < this.#bounds.offset + this.#bounds.limit;
  }

  #finishLine(): void {
    if (!this.#wanted()) return;
    let text = this.#prefix;
    let length = this.#length;
    this.#prefix = '';
    this.#length = 0;
    // A CRLF file: the carriage return belongs to the line ending, not to the line.
    if (length === text.length && text.endsWith('\r')) {
      text = text.slice(0, -1);
      length -= 1;
    }
    if (text.length > this.#bounds.maxLineChars) text = text.slice(0, this.#bounds.maxLineChars);
    let cut = length > text.length;
    let bytes = Buffer.byteLength(text) + NUMBER_COLUMN_BYTES;
    if (this.#bytes + bytes > this.#bounds.maxBytes) {
      if (this.lines.length > 0) {
        // Does not fit: the window ends before this line, which is where to continue.
        this.#closed = true;
        return;
      }
      text = prefixWithin(text, Math.max(0, this.#bounds.maxBytes - NUMBER_COLUMN_BYTES));
      cut = true;
      bytes = this.#bounds.maxBytes;
      this.#closed = true;
    }
    this.#bytes += bytes;
    this.lines.push(cut ? { number: this.#line, text, cutFrom: length } : { number: this.#line, text });
  }
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, cut between code points. */
export function prefixWithin(text: string, maxBytes: number): string {
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

/** The lines of a window of `text` (held in memory), with the total line count. */
export function windowOfText(text: string, bounds: WindowBounds): LinesRead {
  const window = new LineWindow(bounds);
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    window.span(text, start, newline === -1 ? text.length : newline);
    if (newline === -1) return finish(window, bounds, window.end());
    window.newline();
    start = newline + 1;
    if (window.closed) break;
  }
  // Count the rest without decoding lines, so the model is told how long the file is.
  let rest = 0;
  for (let index = text.indexOf('\n', start); index !== -1; index = text.indexOf('\n', index + 1)) rest += 1;
  const partial = start < text.length && !text.endsWith('\n') ? 1 : 0;
  return finish(window, bounds, window.currentLine - 1 + rest + partial);
}

/** Where the window ends, given the lines it holds and the file's line count (when known). */
export function finish(window: LineWindow, bounds: WindowBounds, totalLines: number | undefined): LinesRead {
  const last = window.lines[window.lines.length - 1];
  const endLine = last === undefined ? Math.min(bounds.offset - 1, totalLines ?? bounds.offset - 1) : last.number;
  const more = totalLines === undefined ? true : endLine < totalLines;
  return { lines: window.lines, startLine: bounds.offset, endLine: last === undefined ? bounds.offset - 1 : endLine, totalLines, more };
}
