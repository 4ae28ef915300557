import { GoogleError } from './google-error.js';

/**
 * The overall deadline of one model call, its retries and waits included, fused with the caller's
 * signal: `signal` aborts on either, `expired` only when the deadline passes (its reason a
 * `GoogleError('TIMEOUT')`). Call `dispose` when the call settles. Never throws.
 */
export class CallDeadline {
  readonly signal: AbortSignal;
  readonly expired: AbortSignal;
  readonly #end: number;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    const controller = new AbortController();
    this.expired = controller.signal;
    this.#end = Date.now() + timeoutMs;
    this.#timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => controller.abort(new GoogleError('TIMEOUT', `No complete answer within ${timeoutMs} ms (timeoutMs), retries included.`)), timeoutMs)
      : undefined;
    this.signal = caller === undefined ? controller.signal : AbortSignal.any([caller, controller.signal]);
  }

  remainingMs(): number {
    return this.#end - Date.now();
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}
