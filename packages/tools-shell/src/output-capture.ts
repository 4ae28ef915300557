/**
 * Keeps the head and the tail of a byte stream within a cap, and counts what it drops between
 * them. Memory stays bounded by the cap whatever the stream's length: the tail is a ring of the
 * last bytes seen.
 */
export class OutputCapture {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer;
  /** Bytes written into the ring so far (past the head). */
  #tailWritten = 0;
  #total = 0;

  /** `maxBytes` is split in two: the first half keeps the head, the second the tail. */
  constructor(maxBytes: number) {
    this.#headLimit = Math.ceil(maxBytes / 2);
    this.#tailLimit = Math.floor(maxBytes / 2);
    this.#tail = Buffer.alloc(this.#tailLimit);
  }

  /** Bytes seen in all. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Bytes dropped between the head and the tail. */
  get elidedBytes(): number {
    return Math.max(0, this.#tailWritten - this.#tailLimit);
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(this.#headLimit - this.#headBytes, rest.length);
      this.#head.push(Buffer.from(rest.subarray(0, take)));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailLimit === 0) {
      this.#tailWritten += rest.length;
      return;
    }
    // Only the last #tailLimit bytes of this chunk can survive.
    const keep = rest.length > this.#tailLimit ? rest.subarray(rest.length - this.#tailLimit) : rest;
    const skipped = rest.length - keep.length;
    const at = (this.#tailWritten + skipped) % this.#tailLimit;
    const first = Math.min(keep.length, this.#tailLimit - at);
    keep.copy(this.#tail, at, 0, first);
    if (first < keep.length) keep.copy(this.#tail, 0, first);
    this.#tailWritten += rest.length;
  }

  /**
   * The text kept: the head, then a line naming the elided byte count, then the tail. Bytes are
   * decoded as UTF-8 (a character cut at a seam shows as U+FFFD).
   */
  text(): string {
    const head = Buffer.concat(this.#head).toString('utf8');
    const tail = this.#tailBytes().toString('utf8');
    const elided = this.elidedBytes;
    if (elided === 0) return head + tail;
    return `${head}${head.endsWith('\n') ? '' : '\n'}[... ${elided} bytes of output elided ...]\n${tail}`;
  }

  #tailBytes(): Buffer {
    const stored = Math.min(this.#tailWritten, this.#tailLimit);
    if (stored < this.#tailLimit) return Buffer.from(this.#tail.subarray(0, stored));
    const start = this.#tailWritten % this.#tailLimit;
    return Buffer.concat([this.#tail.subarray(start), this.#tail.subarray(0, start)]);
  }
}
