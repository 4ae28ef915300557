/**
 * The signal one MCP call hands the SDK, which sends the protocol's cancellation when it aborts.
 * Not a Node `AbortSignal`: on Node 20 making one costs about 5 µs and every use of it more (its
 * internals end up in a slow object layout), which was the largest part of what a call cost here.
 * This is an `EventTarget` with what the SDK reads of a signal (`aborted`, `reason`,
 * `throwIfAborted()`, the `abort` event), and `AbortSignal.prototype` on its prototype chain, so a
 * check `instanceof AbortSignal` holds. The SDK adds a listener it never removes: a signal per call,
 * which goes away with the call, keeps that from adding up.
 */
export class CallCancelSignal extends EventTarget {
  #aborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** Aborts with `reason` and tells the listeners; the first reason stays. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.dispatchEvent(new Event('abort'));
  }

  /** For the SDK's types: the calls it makes on a signal are all here. */
  asAbortSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}

Object.setPrototypeOf(CallCancelSignal.prototype, AbortSignal.prototype);
