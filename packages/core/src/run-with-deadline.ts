import pTimeout from 'p-timeout';
import type { ToolArguments } from './call-context.js';
import type { ToolExecution } from './define-tool.js';
import type { Logger } from './logger.js';
import type { Dispatch } from './stage-values.js';

/** How a dispatch ended: its value, or why it has none. */
export type DispatchOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'timeout' }
  | { readonly ok: false; readonly reason: 'aborted' }
  | { readonly ok: false; readonly reason: 'failed'; readonly error: unknown };

/** Thrown into the per-call signal when the deadline passes, so the outcome can tell timeout from abort. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}

// The signal of a call that can be neither cancelled nor timed out: shared, never aborted.
const NEVER_ABORTED = new AbortController().signal;

export interface DeadlineOptions {
  /** `Infinity` for none. */
  readonly timeoutMs: number;
  /** The caller's signal, if any. */
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
}

/**
 * Runs `dispatch` under one per-call signal that fuses the caller's signal and the deadline, and
 * settles on whichever comes first. A body that ignores its signal does not hold the caller: its
 * late value is dropped (and logged). Only what a call needs is created: no controller and no
 * timer without a deadline, no listener without a caller's signal.
 */
export async function runWithDeadline(
  dispatch: Dispatch,
  args: ToolArguments,
  exec: Omit<ToolExecution, 'signal'>,
  options: DeadlineOptions,
): Promise<DispatchOutcome> {
  const { timeoutMs, signal } = options;
  if (signal?.aborted) return { ok: false, reason: 'aborted' };
  const timed = Number.isFinite(timeoutMs);
  if (!timed && signal === undefined) {
    try {
      return { ok: true, value: await dispatch(args, { ...exec, signal: NEVER_ABORTED }) };
    } catch (error) {
      return { ok: false, reason: 'failed', error };
    }
  }

  let callSignal: AbortSignal;
  let timer: NodeJS.Timeout | undefined;
  let onCallerAbort: (() => void) | undefined;
  if (timed) {
    const controller = new AbortController();
    timer = setTimeout(() => controller.abort(new DeadlineExceeded(`deadline of ${timeoutMs} ms passed`)), timeoutMs);
    if (signal) {
      onCallerAbort = () => controller.abort(signal.reason);
      signal.addEventListener('abort', onCallerAbort, { once: true });
    }
    callSignal = controller.signal;
  } else {
    callSignal = signal as AbortSignal;
  }

  const running = dispatch(args, { ...exec, signal: callSignal });
  try {
    return { ok: true, value: await pTimeout(running, { milliseconds: Number.POSITIVE_INFINITY, signal: callSignal }) };
  } catch (error) {
    if (!callSignal.aborted) return { ok: false, reason: 'failed', error };
    running.then(
      () => options.logger.debug({ callId: exec.callId }, 'late value dropped: the call had already timed out or been aborted'),
      () => undefined,
    );
    return { ok: false, reason: callSignal.reason instanceof DeadlineExceeded ? 'timeout' : 'aborted' };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onCallerAbort !== undefined) signal?.removeEventListener('abort', onCallerAbort);
  }
}
