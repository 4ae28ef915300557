import type { ToolArguments } from '../tools/call-context.js';
import type { ToolExecution } from '../tools/define-tool.js';
import { listenForAbort, stopListening, type AbortListener } from './abort-fanout.js';
import type { CallSignal } from './call-signal.js';
import { release, watch, type Watched } from './deadline-watch.js';
import type { Logger } from '../logger.js';
import type { ProgressChannel } from './progress-channel.js';
import type { Dispatch } from './stage-values.js';

/** How a dispatch ended: its value, or why it has none. */
export type DispatchOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'timeout' }
  | { readonly ok: false; readonly reason: 'idle' }
  | { readonly ok: false; readonly reason: 'aborted' }
  | { readonly ok: false; readonly reason: 'failed'; readonly error: unknown };

type Interruption = 'timeout' | 'idle' | 'aborted';

const INTERRUPTED: Readonly<Record<Interruption, DispatchOutcome>> = Object.freeze({
  timeout: Object.freeze({ ok: false, reason: 'timeout' }),
  idle: Object.freeze({ ok: false, reason: 'idle' }),
  aborted: Object.freeze({ ok: false, reason: 'aborted' }),
});

/** The abort reason of a call whose deadline passed. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}

export interface DeadlineOptions {
  /** `Infinity` for none. */
  readonly timeoutMs: number;
  /** Stop the call when no progress was reported for this long (renewed by each report). */
  readonly idleTimeoutMs?: number | undefined;
  /** The call's progress channel; it renews the idle deadline. */
  readonly progress?: ProgressChannel | undefined;
  /** The caller's signal, if any. */
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
}

/**
 * Runs `dispatch` and settles on whichever comes first: its value, the deadline, the idle deadline,
 * or the caller's abort. An interruption aborts `callSignal` (the one signal `exec` hands the body,
 * whichever way the call is interrupted). A body that ignores its signal does not hold the caller:
 * its late value is dropped (and logged). `callSignal` is `undefined` for a call that nothing can
 * interrupt; then no promise is raced. Only what a call needs is made: the deadline is an entry on
 * the shared watch (no timer per call), the caller's signal a Set entry (see `listenForAbort`), and the
 * body's AbortController only if the body reads its signal (see `CallSignal`).
 */
export function runWithDeadline(
  dispatch: Dispatch,
  args: ToolArguments,
  exec: ToolExecution,
  callSignal: CallSignal | undefined,
  options: DeadlineOptions,
): Promise<DispatchOutcome> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve(INTERRUPTED.aborted);
  if (callSignal === undefined) return runUninterruptible(dispatch, args, exec);

  let running: unknown;
  try {
    running = dispatch(args, exec);
  } catch (error) {
    // An execute wrapper that throws before returning its promise.
    return Promise.resolve({ ok: false, reason: 'failed', error });
  }
  // A wrapper may answer synchronously: a plain value is the outcome.
  if (typeof (running as { then?: unknown } | null)?.then !== 'function') return Promise.resolve({ ok: true, value: running });
  return new Promise<DispatchOutcome>((resolve) => new Race(resolve, running as PromiseLike<unknown>, callSignal, exec, options));
}

async function runUninterruptible(dispatch: Dispatch, args: ToolArguments, exec: ToolExecution): Promise<DispatchOutcome> {
  try {
    return { ok: true, value: await dispatch(args, exec) };
  } catch (error) {
    return { ok: false, reason: 'failed', error };
  }
}

/** One call's race between its body and what may interrupt it; whichever comes first resolves. */
class Race implements Watched, AbortListener {
  readonly deadline: number;
  #settled = false;
  readonly #resolve: (outcome: DispatchOutcome) => void;
  readonly #callSignal: CallSignal;
  readonly #callId: string;
  readonly #toolName: string;
  readonly #options: DeadlineOptions;
  readonly #idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(resolve: (outcome: DispatchOutcome) => void, running: PromiseLike<unknown>, callSignal: CallSignal, exec: ToolExecution, options: DeadlineOptions) {
    this.#resolve = resolve;
    this.#callSignal = callSignal;
    this.#callId = exec.callId;
    this.#toolName = exec.toolName;
    this.#options = options;
    const { timeoutMs, idleTimeoutMs, signal } = options;
    this.deadline = Number.isFinite(timeoutMs) ? performance.now() + timeoutMs : Infinity;
    if (this.deadline !== Infinity) watch(this);
    // The idle deadline: refreshed by each report, always under the total deadline above.
    this.#idleTimer =
      idleTimeoutMs === undefined ? undefined : setTimeout(() => this.#interrupt('idle', new DeadlineExceeded(`no progress reported for ${idleTimeoutMs} ms`)), idleTimeoutMs);
    if (this.#idleTimer !== undefined) {
      const idleTimer = this.#idleTimer;
      options.progress?.onReport(() => idleTimer.refresh());
    }
    // The body may have run its synchronous part, and the caller aborted meanwhile.
    if (signal?.aborted) this.aborted();
    else if (signal !== undefined) listenForAbort(signal, this);
    running.then(
      (value) => this.#finish({ ok: true, value }),
      (error: unknown) => this.#finish({ ok: false, reason: 'failed', error }),
    );
  }

  /** The shared watch calls this at the deadline. */
  expire(): void {
    this.#interrupt('timeout', new DeadlineExceeded(`deadline of ${this.#options.timeoutMs} ms passed`));
  }

  /** The caller aborted. */
  aborted(): void {
    this.#interrupt('aborted', this.#options.signal?.reason);
  }

  #interrupt(why: Interruption, reason: unknown): void {
    if (this.#settled) return;
    this.#callSignal.abort(reason, (error) =>
      this.#options.logger.error({ err: error, callId: this.#callId, tool: this.#toolName, stage: 'execute' }, 'an onAbort listener of the body failed'),
    );
    this.#settle(INTERRUPTED[why]);
  }

  #finish(outcome: DispatchOutcome): void {
    if (this.#settled) {
      if (outcome.ok) this.#options.logger.debug({ callId: this.#callId, tool: this.#toolName, stage: 'execute' }, 'late value dropped: the call had already timed out or been aborted');
      return;
    }
    this.#settle(outcome);
  }

  #settle(outcome: DispatchOutcome): void {
    this.#settled = true;
    release(this);
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    if (this.#options.signal !== undefined) stopListening(this.#options.signal, this);
    this.#resolve(outcome);
  }
}
