/** Why a running job was stopped before its body finished. */
export type Interruption = 'cancelled' | 'deadline';

/**
 * One job whose body runs on this worker: the signal the body sees as `exec.signal`, and what stops
 * it (the caller's cancel, the job's deadline). The AbortController is made only when the body
 * reads its signal, and the deadline timer only when the body is still running after its
 * synchronous part: a body that answers at once (most lookups) costs neither, and a worker pays
 * for each job only what that job uses. A stop settles `race` at once, so a body that ignores its
 * signal does not hold the answer.
 */
export class RunningJob {
  /** Set once the job was stopped; the first reason stays. */
  interruption: Interruption | undefined;
  readonly #deadlineAt: number | null;
  #controller: AbortController | undefined;
  #reason: unknown;
  #reject: ((reason: unknown) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(deadlineAt: number | null) {
    this.#deadlineAt = deadlineAt;
  }

  /** The body's `exec.signal`: made on first read, already aborted if the job was stopped before. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.interruption !== undefined) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Waits for the body's promise, or rejects with the stop's reason as soon as the job is stopped
   * (the caller cancelled it, or its deadline passed: the timer is armed here, for the time left).
   */
  race<T>(running: PromiseLike<T>): Promise<T> {
    if (this.interruption !== undefined) return Promise.reject(this.#reason);
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      if (this.#deadlineAt !== null) this.#timer = setTimeout(() => this.stop('deadline'), Math.max(this.#deadlineAt - Date.now(), 0));
      running.then(resolve, reject);
    });
  }

  /** Stops the job: aborts the body's signal and settles `race`. Later stops change nothing. */
  stop(why: Interruption): void {
    if (this.interruption !== undefined) return;
    this.interruption = why;
    this.#reason = new Error(why === 'cancelled' ? 'cancelled by the caller' : 'deadline passed');
    this.#controller?.abort(this.#reason);
    this.#reject?.(this.#reason);
    this.#clear();
  }

  /** The answer is in: the deadline timer goes. */
  finish(): void {
    this.#clear();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#reject = undefined;
  }
}
