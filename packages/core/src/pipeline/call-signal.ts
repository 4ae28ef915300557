/** Told once, with the reason, when a call is interrupted (see `ToolExecution.onAbort`). */
export type CallAbortListener = (reason: unknown) => void;

/** What `exec` is made from: the call's signal, and the cheaper way to hear of its abort. */
export interface CallAbortSource {
  readonly signal: AbortSignal;
  readonly onAbort: (listener: CallAbortListener) => () => void;
}

const NOTHING_TO_REMOVE = (): void => undefined;

/**
 * The signal a call's body sees, made only when the body (or a wrapper) reads it: most bodies never
 * do, and an AbortController is the dearest thing a call would otherwise make (on Node 20 an
 * AbortSignal costs about 5 µs to make, and more to use). Read after the call was interrupted, it is
 * already aborted with the reason. A body that only forwards the abort to an API of its own (an MCP
 * request, a child process) hears of it through `onAbort`, which makes no signal at all.
 */
export class CallSignal implements CallAbortSource {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #listeners: CallAbortListener[] | undefined;
  /** Own and bound: `exec.onAbort` is this function, and works however it is called. */
  readonly onAbort: (listener: CallAbortListener) => () => void;

  constructor() {
    this.onAbort = subscriber(this);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Adds `listener`, or calls it at once when the call was already interrupted; returns its remover. */
  listen(listener: CallAbortListener): () => void {
    if (this.#aborted) {
      listener(this.#reason);
      return NOTHING_TO_REMOVE;
    }
    const listeners = (this.#listeners ??= []);
    listeners.push(listener);
    return () => {
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    };
  }

  /**
   * Aborts the signal, now if it was read, or as soon as it is, and tells the `onAbort` listeners;
   * the first reason stays. A listener that throws does not keep the others from hearing: its error
   * goes to `onListenerError`.
   */
  abort(reason: unknown, onListenerError?: (error: unknown) => void): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch (error) {
        onListenerError?.(error);
      }
    }
  }
}

// Made by a function, not inline: a transpiler that keeps names (tsx, running the sources) renames
// an arrow assigned to a field on every construction.
function subscriber(source: CallSignal): (listener: CallAbortListener) => () => void {
  return (listener) => source.listen(listener);
}

/** The source of a call that can be neither cancelled nor timed out: one signal, shared, never aborted. */
export const NEVER_ABORTED: CallAbortSource = Object.freeze({ signal: new AbortController().signal, onAbort: () => NOTHING_TO_REMOVE });
