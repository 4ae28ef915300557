/** A signal that aborts when either source does, and the undo of the listeners it added. */
export interface LinkedSignal {
  readonly signal: AbortSignal | undefined;
  readonly unlink: () => void;
}

const NOTHING_TO_UNLINK = () => {};

/**
 * Fuses the agent's signal and the turn's signal. With one or none, that signal is used as is:
 * nothing is allocated. Listeners are removed by `unlink`, so a long-lived agent signal does not
 * collect one listener per turn (AbortSignal.any keeps its sources' dependants until GC).
 */
export function linkSignals(first: AbortSignal | undefined, second: AbortSignal | undefined): LinkedSignal {
  if (first === undefined || second === undefined) return { signal: first ?? second, unlink: NOTHING_TO_UNLINK };
  const controller = new AbortController();
  if (first.aborted || second.aborted) {
    controller.abort(first.aborted ? first.reason : second.reason);
    return { signal: controller.signal, unlink: NOTHING_TO_UNLINK };
  }
  const onFirst = () => controller.abort(first.reason);
  const onSecond = () => controller.abort(second.reason);
  first.addEventListener('abort', onFirst, { once: true });
  second.addEventListener('abort', onSecond, { once: true });
  return {
    signal: controller.signal,
    unlink: () => {
      first.removeEventListener('abort', onFirst);
      second.removeEventListener('abort', onSecond);
    },
  };
}
