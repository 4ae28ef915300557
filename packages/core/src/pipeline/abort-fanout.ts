type Subscribers = Set<() => void>;

const subscribersBySignal = new WeakMap<AbortSignal, Subscribers>();

/**
 * Calls `callback` once when `signal` aborts, and returns the unsubscribe. Many calls share one
 * signal (a turn's, a batch's): each signal gets a single event listener, and subscribing is a Set
 * insertion instead of an EventTarget listener per call. Does not call back for an already
 * aborted signal: check `signal.aborted` first.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let subscribers = subscribersBySignal.get(signal);
  if (subscribers === undefined) {
    const created: Subscribers = new Set();
    subscribers = created;
    subscribersBySignal.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const notify of [...created]) notify();
        created.clear();
      },
      { once: true },
    );
  }
  subscribers.add(callback);
  const own = subscribers;
  return () => void own.delete(callback);
}
