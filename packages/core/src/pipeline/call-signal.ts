/**
 * The signal a call's body sees, made only when the body (or a wrapper) reads it: most bodies never
 * do, and an AbortController is the dearest thing a call would otherwise make. Read after the call
 * was interrupted, it is already aborted with the reason.
 */
export class CallSignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the signal, now if it was read, or as soon as it is; the first reason stays. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** The source of a call that can be neither cancelled nor timed out: one signal, shared, never aborted. */
export const NEVER_ABORTED: { readonly signal: AbortSignal } = Object.freeze({ signal: new AbortController().signal });
