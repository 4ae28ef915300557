/**
 * The overall deadline of one model call, its retries and waits included, fused with the caller's
 * signal. `signal` aborts on either; its reason is the caller's own, or the adapter's timeout
 * error (`timeoutError`). Timers are the global ones, so fake timers drive them. Call `dispose`
 * when the call settles.
 */
export class CallDeadline {
  /** Aborts when the caller aborts or the deadline passes. */
  readonly signal: AbortSignal;
  /** Aborts only when the deadline passes. */
  readonly expired: AbortSignal;
  readonly #end: number;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  /** Throws nothing; a `timeoutMs` of `Infinity` means no deadline. */
  constructor(timeoutMs: number, caller: AbortSignal | undefined, timeoutError: (timeoutMs: number) => Error) {
    const controller = new AbortController();
    this.expired = controller.signal;
    this.#end = Date.now() + timeoutMs;
    this.#timer = Number.isFinite(timeoutMs) ? setTimeout(() => controller.abort(timeoutError(timeoutMs)), timeoutMs) : undefined;
    this.signal = caller === undefined ? controller.signal : AbortSignal.any([caller, controller.signal]);
  }

  /** Milliseconds left before the deadline (`Infinity` without one). */
  remainingMs(): number {
    return this.#end - Date.now();
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}
