/**
 * Fires `onIdle` when `touch` has not been called for `ms`: the server has gone silent. Any byte
 * counts. `pause` stops the clock while the consumer, not the server, is the slow one; `ms` of
 * `Infinity` disables it. Never throws.
 */
export class IdleTimer {
  readonly #ms: number;
  readonly #onIdle: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(ms: number, onIdle: () => void) {
    this.#ms = ms;
    this.#onIdle = onIdle;
  }

  touch(): void {
    if (this.#stopped || !Number.isFinite(this.#ms)) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#onIdle, this.#ms);
  }

  pause(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  stop(): void {
    this.#stopped = true;
    this.pause();
  }
}
