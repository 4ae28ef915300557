import { onAbort } from './abort-fanout.js';
import { HookFailure, type StageName } from '../plugins/hook-failure.js';

/**
 * Thrown into the pipeline when the caller aborted while a piece of plugin code was awaited: the
 * call settles `ABORTED` at once, whatever the plugin does later.
 */
export class CallAborted extends Error {
  override readonly name = 'CallAborted';
}

/** Who is awaited: the stage, and the plugin (tap, guard, or the run's memory or journal). */
export interface AwaitedPiece {
  readonly stage: StageName;
  readonly name: string;
  /** Milliseconds the piece may take before the call fails closed (`HOOK_FAILED`); `Infinity` for none. */
  readonly boundMs: number;
}

/**
 * Awaits one piece of plugin code under the call's signal and the piece's bound. A value that is
 * not a promise is returned as it is (nothing to wait for, nothing allocated). A promise is raced:
 * the caller's abort rejects with `CallAborted`, the bound with `HookFailure` naming the plugin and
 * the stage; what the plugin settles with later is dropped.
 */
export function awaitPlugin<T>(value: T | PromiseLike<T>, signal: AbortSignal | undefined, piece: AwaitedPiece): T | Promise<T> {
  if (!isThenable(value)) return value;
  const bounded = Number.isFinite(piece.boundMs);
  if (signal === undefined && !bounded) return Promise.resolve(value);
  if (signal?.aborted) return Promise.reject(new CallAborted('the call was cancelled'));
  return new Promise<T>((resolve, reject) => {
    const entry: PendingPiece = {
      deadline: bounded ? performance.now() + piece.boundMs : Infinity,
      expire: () => {
        unsubscribe?.();
        reject(new HookFailure(piece.stage, piece.name, new Error(`did not settle within ${piece.boundMs} ms`)));
      },
    };
    const unsubscribe = signal
      ? onAbort(signal, () => {
          release(entry);
          reject(new CallAborted('the call was cancelled'));
        })
      : undefined;
    if (bounded) watch(entry);
    value.then(
      (settled) => {
        release(entry);
        unsubscribe?.();
        resolve(settled);
      },
      (error: unknown) => {
        release(entry);
        unsubscribe?.();
        reject(error);
      },
    );
  });
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

interface PendingPiece {
  readonly deadline: number;
  readonly expire: () => void;
}

// One timer for every bounded piece of every call, armed for the earliest deadline: a piece costs a
// Set insertion and deletion, not a timer of its own (most settle within microseconds). The timer
// keeps the process alive only while a piece is pending: it is unref'd, not cleared, when none is.
const pending = new Set<PendingPiece>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

function watch(entry: PendingPiece): void {
  pending.add(entry);
  if (entry.deadline < timerAt) arm(entry.deadline);
  else if (pending.size === 1) timer?.ref();
}

function release(entry: PendingPiece): void {
  if (pending.delete(entry) && pending.size === 0) timer?.unref();
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(sweep, Math.max(0, at - performance.now()));
}

function sweep(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const entry of pending) {
    if (entry.deadline <= now) {
      pending.delete(entry);
      entry.expire();
    } else if (entry.deadline < next) {
      next = entry.deadline;
    }
  }
  if (next !== Infinity) arm(next);
}
