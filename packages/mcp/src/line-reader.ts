/** The most one line may hold: the SDK's own stdio cap. A longer line is dropped, not kept. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How much of each end of a dropped line is kept, to find its request id. */
export const KEPT_END_BYTES = 1_024;

const NEWLINE = 0x0a;

/** A line longer than the cap, dropped as it streamed by: only its two ends and its size are kept. */
export interface OversizedLine {
  readonly oversized: true;
  /** Its first `KEPT_END_BYTES` bytes, as text. */
  readonly head: string;
  /** Its last `KEPT_END_BYTES` bytes, as text. */
  readonly tail: string;
  readonly bytes: number;
}

interface Skipping {
  readonly head: Buffer;
  tail: Buffer;
  bytes: number;
}

/**
 * Splits a byte stream into lines (newline-delimited JSON-RPC, as MCP's stdio transport frames it),
 * like the SDK's `ReadBuffer`: the same cap, a trailing `\r` dropped. It differs in what it copies (a
 * chunk is read where it lies; only the unfinished end of one is kept and joined to the next) and in
 * a line over the cap: the SDK gives the stream up, this reader drops that line as it streams by
 * (holding no more than its two ends) and goes on with the next one, which the stream is still in
 * step with. Never throws.
 */
export class LineReader {
  #buffer: Buffer | undefined;
  #offset = 0;
  #skipping: Skipping | undefined;
  #dropped: OversizedLine[] = [];
  // The unfinished line, as the chunks it came in.
  #parts: Buffer[] = [];
  #held = 0;

  constructor(private readonly maxBytes: number = MAX_LINE_BYTES) {}

  append(chunk: Buffer): void {
    const skipping = this.#skipping;
    if (skipping !== undefined) {
      const end = chunk.indexOf(NEWLINE);
      const part = end === -1 ? chunk : chunk.subarray(0, end);
      skipping.bytes += part.length;
      skipping.tail = lastBytes(skipping.tail, part);
      if (end === -1) return;
      this.#skipping = undefined;
      this.#dropped.push(finish(skipping));
      chunk = chunk.subarray(end + 1);
      if (chunk.length === 0) return;
    }
    if (this.#parts.length === 0) {
      this.#buffer = this.#buffer === undefined ? chunk : Buffer.concat([this.#buffer.subarray(this.#offset), chunk]);
      this.#offset = 0;
      return;
    }
    // An unfinished line is held in parts, joined once, when its end comes (not at every chunk).
    this.#parts.push(chunk);
    this.#held += chunk.length;
    if (chunk.indexOf(NEWLINE) === -1) {
      this.#checkHeld();
      return;
    }
    this.#buffer = Buffer.concat(this.#parts, this.#held);
    this.#offset = 0;
    this.#parts = [];
    this.#held = 0;
  }

  /**
   * The next whole line, without its newline (and `\r`); an `OversizedLine` in place of a line over
   * the cap; `undefined` until one is complete.
   */
  readLine(): string | OversizedLine | undefined {
    if (this.#dropped.length > 0) return this.#dropped.shift();
    const buffer = this.#buffer;
    if (buffer === undefined) return undefined;
    const end = buffer.indexOf(NEWLINE, this.#offset);
    if (end === -1) {
      const rest = buffer.subarray(this.#offset);
      this.#buffer = undefined;
      this.#offset = 0;
      // Nothing else is held here: a buffer is only read while no unfinished line is in parts.
      this.#parts = [rest];
      this.#held = rest.length;
      return this.#checkHeld();
    }
    const start = this.#offset;
    if (end + 1 === buffer.length) {
      this.#buffer = undefined;
      this.#offset = 0;
    } else {
      this.#offset = end + 1;
    }
    if (end - start > this.maxBytes) {
      const line = buffer.subarray(start, end);
      return finish({ head: line.subarray(0, KEPT_END_BYTES), tail: line.subarray(-KEPT_END_BYTES), bytes: line.length });
    }
    const stop = end > start && buffer[end - 1] === 0x0d ? end - 1 : end;
    return buffer.toString('utf8', start, stop);
  }

  // An unfinished line already over the cap is dropped from here on, as it streams by.
  #checkHeld(): undefined {
    if (this.#held <= this.maxBytes) return undefined;
    const held = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#held);
    this.#skipping = { head: Buffer.from(held.subarray(0, KEPT_END_BYTES)), tail: Buffer.from(held.subarray(-KEPT_END_BYTES)), bytes: held.length };
    this.#parts = [];
    this.#held = 0;
    return undefined;
  }

  /** Forgets what it holds. */
  clear(): void {
    this.#buffer = undefined;
    this.#offset = 0;
    this.#skipping = undefined;
    this.#dropped = [];
    this.#parts = [];
    this.#held = 0;
  }
}

function lastBytes(kept: Buffer, more: Buffer): Buffer {
  if (more.length >= KEPT_END_BYTES) return Buffer.from(more.subarray(-KEPT_END_BYTES));
  const joined = Buffer.concat([kept, more]);
  return joined.length > KEPT_END_BYTES ? joined.subarray(-KEPT_END_BYTES) : joined;
}

function finish(line: { readonly head: Buffer; readonly tail: Buffer; readonly bytes: number }): OversizedLine {
  return { oversized: true, head: line.head.toString('utf8'), tail: line.tail.toString('utf8'), bytes: line.bytes };
}
