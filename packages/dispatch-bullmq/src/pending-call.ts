import type { ToolJob, ToolJobOutcome } from './tool-job.js';

/** What `PendingCall.answer` resolves with once the caller gave up: no outcome (the call is answered `ABORTED`). */
export const GAVE_UP: unique symbol = Symbol('gave up');

/**
 * One job out on the queue, waiting for its answer. Its `answer` never rejects (an abort that
 * comes while the job is still being added must not surface as an unhandled rejection); it
 * resolves with the worker's outcome, or with `GAVE_UP` when the caller gave up. The call is
 * itself the abort listener (`handleEvent`, for a signal), so listening makes no closure per call.
 */
export class PendingCall {
  readonly answer: Promise<ToolJobOutcome | typeof GAVE_UP>;
  /** A worker took the job (BullMQ's `active` event): it can no longer be withdrawn. */
  active = false;
  /** A withdrawal (no worker in time) is under way. */
  withdrawing = false;
  /** The caller gave up. */
  gaveUp = false;
  /** The job was handed to Redis: giving up then cancels it. */
  sent = false;
  /** Nothing more of the job will reach the event stream: its answer came, or it was withdrawn. */
  answered = false;
  /** When (`performance.now()`) a job no worker took by then is withdrawn. */
  readonly withdrawAt: number;
  /**
   * The ids of this job's entries in the queue's event stream that carry its data (progress
   * reports, the answer): deleted before the call returns, so no result stays in Redis.
   */
  eventIds: string[] | undefined;
  #resolve!: (outcome: ToolJobOutcome | typeof GAVE_UP) => void;

  constructor(
    readonly jobId: string,
    readonly job: ToolJob,
    readonly onProgress: (update: unknown) => void,
    readonly onCancel: (call: PendingCall) => void,
    pickupTimeoutMs: number,
  ) {
    this.answer = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    this.withdrawAt = performance.now() + pickupTimeoutMs;
  }

  /** The worker's outcome (or the dispatcher's verdict); the first one stays. */
  settle(outcome: ToolJobOutcome): void {
    this.#resolve(outcome);
  }

  /** The caller gave up: the answer is `GAVE_UP`, and a job already sent is cancelled. */
  giveUp(): void {
    if (this.gaveUp) return;
    this.gaveUp = true;
    this.#resolve(GAVE_UP);
    if (this.sent) this.onCancel(this);
  }

  /** The caller's signal aborted (EventTarget calls this for a listener object). */
  handleEvent(): void {
    this.giveUp();
  }
}
