/** Told once when the signal it listens to aborts. An object with a method, so listening makes no closure. */
export interface AbortListener {
  aborted(): void;
}

type Listeners = Set<AbortListener>;

const listenersBySignal = new WeakMap<AbortSignal, Listeners>();

/**
 * Tells `listener` once when `signal` aborts. Many calls share one signal (a turn's, a batch's):
 * each signal gets a single event listener, and listening is a Set insertion instead of an
 * EventTarget listener per call. Does not tell an already aborted signal: check `signal.aborted`
 * first. Stop with `stopListening`.
 */
export function listenForAbort(signal: AbortSignal, listener: AbortListener): void {
  let listeners = listenersBySignal.get(signal);
  if (listeners === undefined) {
    const created: Listeners = new Set();
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
