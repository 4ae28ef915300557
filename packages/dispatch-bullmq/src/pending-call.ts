import type { AbortListener } from './abort-listeners.js';
import type { ToolJob, ToolJobOutcome } from './tool-job.js';

/** What `PendingCall.answer` resolves with once the caller gave up: no outcome (the call is answered `ABORTED`). */
export const GAVE_UP: unique symbol = Symbol('gave up');

/**
 * One job out on the queue, waiting for its answer. Its `answer` never rejects (an abort that
 * comes while the job is still being added must not surface as an unhandled rejection); it
 * resolves with the worker's outcome, or with `GAVE_UP` when the caller's signal aborted. The call
 * is itself the abort listener (see `listenForAbort`), so listening makes no closure per call.
 */
export class PendingCall implements AbortListener {
  readonly answer: Promise<ToolJobOutcome | typeof GAVE_UP>;
  /** A worker took the job (BullMQ's `active` event): it can no longer be withdrawn. */
  active = false;
  /** A withdrawal (no worker in time) is under way. */
  withdrawing = false;
  /**
   * When (`performance.now()`) a job no worker took is withdrawn: after the pickup time, or at the
   * call's deadline if that comes first (the caller stopped waiting then).
   */
  readonly withdrawAt: number;
  /** The deadline comes before the pickup time: a withdrawal is a timeout, not "no worker". */
  readonly deadlineFirst: boolean;
  #resolve!: (outcome: ToolJobOutcome | typeof GAVE_UP) => void;

  constructor(
    readonly jobId: string,
    readonly job: ToolJob,
    readonly onProgress: (update: unknown) => void,
    readonly onAbort: (call: PendingCall) => void,
    pickupTimeoutMs: number,
  ) {
    this.answer = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    const now = performance.now();
    const untilDeadline = job.deadlineAt === null ? Infinity : job.deadlineAt - Date.now();
    this.deadlineFirst = untilDeadline < pickupTimeoutMs;
    this.withdrawAt = now + Math.max(Math.min(untilDeadline, pickupTimeoutMs), 0);
  }

  /** The worker's outcome (or the dispatcher's verdict); the first one stays. */
  settle(outcome: ToolJobOutcome): void {
    this.#resolve(outcome);
  }

  /** The caller's signal aborted. */
  aborted(): void {
    this.#resolve(GAVE_UP);
    this.onAbort(this);
  }
}
