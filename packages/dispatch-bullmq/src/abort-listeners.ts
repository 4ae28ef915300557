/** Told when the signal it listens to aborts. An object with a method: listening makes no closure. */
export interface AbortListener {
  aborted(): void;
}

const listenersBySignal = new WeakMap<AbortSignal, Set<AbortListener>>();

/**
 * Tells `listener` once when `signal` aborts. The calls of a turn share its signal: the signal gets
 * one event listener, and each call is a Set entry, not an EventTarget listener of its own (adding
 * and removing those costs more than the rest of sending a job). Does not tell an already aborted
 * signal: check `signal.aborted` first. Stop with `stopListening`.
 */
export function listenForAbort(signal: AbortSignal, listener: AbortListener): void {
  let listeners = listenersBySignal.get(signal);
  if (listeners === undefined) {
    const created = new Set<AbortListener>();
    listeners = created;
    listenersBySignal.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        const told = [...created];
        created.clear();
        for (const each of told) each.aborted();
      },
      { once: true },
    );
  }
  listeners.add(listener);
}

/** Stops telling `listener` about `signal`. Harmless when it was told already, or never listened. */
export function stopListening(signal: AbortSignal, listener: AbortListener): void {
  listenersBySignal.get(signal)?.delete(listener);
}
