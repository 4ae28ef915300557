/** The most one line may hold before the stream is given up: the SDK's own stdio cap. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines (newline-delimited JSON-RPC, as MCP's stdio transport frames it),
 * like the SDK's `ReadBuffer`: the same cap (on a line not yet finished), a trailing `\r` dropped.
 * It differs in what it copies: a chunk is read where it lies, and only the unfinished end of one is
 * kept and joined to the next (the SDK's joins every chunk to what came before, even to nothing).
 */
export class LineReader {
  #buffer: Buffer | undefined;
  #offset = 0;

  constructor(private readonly maxBytes: number = MAX_LINE_BYTES) {}

  /** Adds `chunk`; throws (and forgets what it held) when an unfinished line would pass the cap. */
  append(chunk: Buffer): void {
    const buffer = this.#buffer;
    if (buffer === undefined) {
      this.#buffer = chunk;
      this.#offset = 0;
    } else {
      const held = buffer.length - this.#offset;
      if (held + chunk.length > this.maxBytes) {
        this.clear();
        throw new Error(`a line from the server passed ${this.maxBytes} bytes without a newline`);
      }
      this.#buffer = Buffer.concat([buffer.subarray(this.#offset), chunk]);
      this.#offset = 0;
    }
    if (this.#buffer.length - this.#offset > this.maxBytes && this.#buffer.indexOf(NEWLINE, this.#offset) === -1) {
      this.clear();
      throw new Error(`a line from the server passed ${this.maxBytes} bytes without a newline`);
    }
  }

  /** The next whole line, without its newline (and `\r`), or `undefined` until one is complete. */
  readLine(): string | undefined {
    const buffer = this.#buffer;
    if (buffer === undefined) return undefined;
    const end = buffer.indexOf(NEWLINE, this.#offset);
    if (end === -1) return undefined;
    const stop = end > this.#offset && buffer[end - 1] === 0x0d ? end - 1 : end;
    const line = buffer.toString('utf8', this.#offset, stop);
    if (end + 1 === buffer.length) this.clear();
    else this.#offset = end + 1;
    return line;
  }

  /** Forgets what it holds. */
  clear(): void {
    this.#buffer = undefined;
    this.#offset = 0;
  }
}
