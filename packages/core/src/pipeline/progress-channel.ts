import { assertProgress, copyProgress, type ToolProgress } from '../tools/tool-progress.js';

/** Default spacing of the progress reports delivered for one call (a burst is thinned to this). */
export const DEFAULT_PROGRESS_INTERVAL_MS = 100;

/** `exec.progress` when nobody observes and no idle deadline listens: it only checks the report. */
export const UNOBSERVED_PROGRESS = (update: ToolProgress): void => assertProgress(update);

/**
 * The progress of one call, from the body to its observers. The first report goes out at once;
 * within `intervalMs` of a delivery, only the latest report is kept and goes out when the interval
 * ends (a burst of 10,000 reports is a handful of deliveries, always in order, the last one included).
 * Every report, delivered or not, renews the idle deadline. `close()` (when the body settled)
 * delivers a report still waiting, then drops every later one.
 */
export class ProgressChannel {
  readonly #deliver: ((update: ToolProgress) => void) | undefined;
  readonly #intervalMs: number;
  #open = true;
  #lastDelivery = -Infinity;
  #waiting: ToolProgress | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #renew: (() => void) | undefined;

  constructor(deliver: ((update: ToolProgress) => void) | undefined, intervalMs: number) {
    this.#deliver = deliver;
    this.#intervalMs = intervalMs;
  }

  /** What the body gets as `exec.progress`. */
  readonly report = (update: ToolProgress): void => {
    assertProgress(update);
    if (!this.#open) return;
    this.#renew?.();
    if (this.#deliver === undefined) return;
    const copy = copyProgress(update);
    const now = performance.now();
    if (this.#timer === undefined && now - this.#lastDelivery >= this.#intervalMs) {
      this.#send(copy, now);
      return;
    }
    this.#waiting = copy;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(this.#flush, this.#intervalMs - (now - this.#lastDelivery));
      this.#timer.unref?.();
    }
  };

  /** Called on every report: the idle deadline's renewal. */
  onReport(renew: () => void): void {
    this.#renew = renew;
  }

  /** The body settled: deliver what waits, then drop everything after. Idempotent. */
  close(): void {
    if (!this.#open) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flush();
    this.#open = false;
  }

  readonly #flush = (): void => {
    this.#timer = undefined;
    const waiting = this.#waiting;
    if (waiting === undefined || !this.#open) return;
    this.#waiting = undefined;
    this.#send(waiting, performance.now());
  };

  #send(update: ToolProgress, now: number): void {
    this.#lastDelivery = now;
    this.#deliver!(update);
  }
}
