import type { ToolArguments } from '../tools/call-context.js';
import type { ToolExecution } from '../tools/define-tool.js';
import { onAbort } from './abort-fanout.js';
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

/** The abort reason of a call whose deadline passed. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}

// The signal of a call that can be neither cancelled nor timed out: shared, never aborted.
const NEVER_ABORTED = new AbortController().signal;

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
 * Runs `dispatch` under one per-call signal (set on `exec`, which is the call's own object) that fuses the caller's signal and the deadline, and
 * settles on whichever comes first. A body that ignores its signal does not hold the caller: its
 * late value is dropped (and logged). Only what a call needs is created: no controller and no
 * timer without a deadline, no EventTarget listener per call for the caller's signal (see
 * `onAbort`), and no promise race when nothing can interrupt the call.
 */
export async function runWithDeadline(
  dispatch: Dispatch,
  args: ToolArguments,
  exec: ToolExecution & { signal: AbortSignal },
  options: DeadlineOptions,
): Promise<DispatchOutcome> {
  const { timeoutMs, idleTimeoutMs, signal } = options;
  if (signal?.aborted) return { ok: false, reason: 'aborted' };
  const timed = Number.isFinite(timeoutMs);
  if (!timed && signal === undefined && idleTimeoutMs === undefined) {
    try {
      exec.signal = NEVER_ABORTED;
      return { ok: true, value: await dispatch(args, exec) };
    } catch (error) {
      return { ok: false, reason: 'failed', error };
    }
  }

  // The call's own controller, so the body sees one signal whichever way the call is interrupted.
  const controller = new AbortController();
  let interrupt!: (reason: 'timeout' | 'idle' | 'aborted') => void;
  const interrupted = new Promise<'timeout' | 'idle' | 'aborted'>((resolve) => {
    interrupt = resolve;
  });
  const timer = timed
    ? setTimeout(() => {
        controller.abort(new DeadlineExceeded(`deadline of ${timeoutMs} ms passed`));
        interrupt('timeout');
      }, timeoutMs)
    : undefined;
  // The idle deadline: refreshed by each report, always under the total deadline above.
  const idleTimer =
    idleTimeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          controller.abort(new DeadlineExceeded(`no progress reported for ${idleTimeoutMs} ms`));
          interrupt('idle');
        }, idleTimeoutMs);
  if (idleTimer !== undefined) options.progress?.onReport(() => idleTimer.refresh());
  const unsubscribe = signal
    ? onAbort(signal, () => {
        controller.abort(signal.reason);
        interrupt('aborted');
      })
    : undefined;

  try {
    let running: Promise<unknown>;
    try {
      exec.signal = controller.signal;
      const returned = dispatch(args, exec) as unknown;
      // A wrapper may answer synchronously: a plain value is a settled promise.
      running = typeof (returned as { then?: unknown } | null)?.then === 'function' ? (returned as Promise<unknown>) : Promise.resolve(returned);
    } catch (error) {
      // An execute wrapper that throws before returning its promise.
      return { ok: false, reason: 'failed', error };
    }
    const settled = await Promise.race([running.then((value) => ({ value }), (error: unknown) => ({ error })), interrupted]);
    if (typeof settled === 'string') {
      running.then(
        () => options.logger.debug({ callId: exec.callId, tool: exec.toolName, stage: 'execute' }, 'late value dropped: the call had already timed out or been aborted'),
        () => undefined,
      );
      return { ok: false, reason: settled };
    }
    return 'error' in settled ? { ok: false, reason: 'failed', error: settled.error } : { ok: true, value: settled.value };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    unsubscribe?.();
  }
}
