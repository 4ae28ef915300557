/** How much of a server's stderr is kept for error messages, in characters. */
export const STDERR_TAIL_CHARS = 2_000;

/**
 * Keeps the last `limit` characters a child wrote to stderr, so an error can say why a server
 * failed without holding everything it ever logged.
 */
export class StderrTail {
  #text = '';

  constructor(private readonly limit: number = STDERR_TAIL_CHARS) {}

  append(chunk: Buffer | string): void {
    this.#text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    // Trim only when well past the limit, so a chatty server does not make every chunk a copy.
    if (this.#text.length > this.limit * 2) this.#text = this.#text.slice(-this.limit);
  }

  /** The kept text, trimmed, at most `limit` characters; empty when the child wrote nothing. */
  text(): string {
    const text = this.#text.length > this.limit ? this.#text.slice(-this.limit) : this.#text;
    return text.trim();
  }
}
