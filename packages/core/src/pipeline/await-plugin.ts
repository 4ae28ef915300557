import { listenForAbort, stopListening, type AbortListener } from './abort-fanout.js';
import { release, watch, type Watched } from './deadline-watch.js';
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
  /** A rejection is the plugin's failure: it becomes a `HookFailure` naming the plugin and the stage. */
  readonly blame?: boolean;
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
  if (signal === undefined && !bounded) return piece.blame === true ? Promise.resolve(value).then(undefined, (error: unknown) => Promise.reject(blamed(piece, error))) : Promise.resolve(value);
  if (signal?.aborted) return Promise.reject(new CallAborted('the call was cancelled'));
  return new Promise<T>((resolve, reject) => new PendingPiece(value, signal, piece, bounded, resolve, reject));
}

function blamed(piece: AwaitedPiece, error: unknown): unknown {
  return error instanceof HookFailure || error instanceof CallAborted ? error : new HookFailure(piece.stage, piece.name, error);
}

/** True for a promise or any thenable. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** One awaited piece: on the shared deadline watch and listening to the call's signal, until it settles. */
class PendingPiece<T> implements Watched, AbortListener {
  readonly deadline: number;
  #done = false;
  readonly #signal: AbortSignal | undefined;
  readonly #piece: AwaitedPiece;
  readonly #resolve: (value: T) => void;
  readonly #reject: (error: unknown) => void;

  constructor(value: PromiseLike<T>, signal: AbortSignal | undefined, piece: AwaitedPiece, bounded: boolean, resolve: (value: T) => void, reject: (error: unknown) => void) {
    this.#signal = signal;
    this.#piece = piece;
    this.#resolve = resolve;
    this.#reject = reject;
    this.deadline = bounded ? performance.now() + piece.boundMs : Infinity;
    if (signal !== undefined) listenForAbort(signal, this);
    if (bounded) watch(this);
    value.then(
      (settled) => {
        if (this.#end()) resolve(settled);
      },
      (error: unknown) => {
        if (this.#end()) reject(piece.blame === true ? blamed(piece, error) : error);
      },
    );
  }

  /** The bound passed. */
  expire(): void {
    if (this.#end()) this.#reject(new HookFailure(this.#piece.stage, this.#piece.name, new Error(`did not settle within ${this.#piece.boundMs} ms`)));
  }

  /** The caller aborted. */
  aborted(): void {
    if (this.#end()) this.#reject(new CallAborted('the call was cancelled'));
  }

  // Whether this is the first ending; stops the watch and the listening either way.
  #end(): boolean {
    if (this.#done) return false;
    this.#done = true;
    release(this);
    if (this.#signal !== undefined) stopListening(this.#signal, this);
    return true;
  }
}
