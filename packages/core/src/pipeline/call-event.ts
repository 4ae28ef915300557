import type { ToolResult } from '../tools/tool-result.js';

/**
 * The timed pieces of one call, in the order they can happen. `validate` is parsing and checking
 * the arguments; `guards` all guards together (each guard also has its own `guard` event);
 * `approval` the wait for an answer; `execute` stages 2 and 3 together (wrappers, retries and
 * every attempt of the body). A piece the call did not reach, or that had nothing to run (no taps),
 * has no event.
 */
export type CallStage = 'validate' | 'prepareExecution' | 'guards' | 'approval' | 'execute' | 'createSuccessResult' | 'postExecute' | 'finalizeContent';

/**
 * What the `call` observer hook hears about one call, as it happens (synchronously, at the moment
 * it describes: a piece's event comes when it ended, `durationMs` after it began). Events are
 * read-only by type and not frozen: a call makes several, and freezing each cost more than
 * making it; every observer of the hook gets the same object. Every call gets
 * `start` first and `settle` last; between them come the events of the pieces it went through.
 * Durations are milliseconds from `performance.now()`, rounded to microseconds.
 *
 * - `start`: the call entered the pipeline; `queuedMs` is how long it waited in its batch for a free
 *   slot (0 outside a batch, or when it started at once).
 * - `stage`: one timed piece ended (see `CallStage`).
 * - `guard`: one guard answered (`undefined`, no opinion, is `allow`); a guard that threw or
 *   answered nonsense has no `guard` event (the call settles `HOOK_FAILED`).
 * - `approval-asked`: a guard asked, the approval gate starts (a stored answer may be reused without
 *   asking anyone); `approval-answered`: the outcome, with how long it took. Anything but an allow
 *   is `approved: false`, with the message the model reads.
 * - `attempt`: one run of the body ended (`ok: false` with what it threw); a retried call has one
 *   per attempt. A wrapper that runs the body elsewhere (a queue) has none here.
 * - `settle`: the final result (after stage 6a, before it is announced to `result` observers) and
 *   the call's whole duration.
 */
export type CallEvent =
  | { readonly type: 'start'; readonly queuedMs: number }
  | { readonly type: 'stage'; readonly stage: CallStage; readonly durationMs: number }
  | { readonly type: 'guard'; readonly guard: string; readonly decision: 'allow' | 'ask' | 'deny'; readonly reason: string | undefined; readonly durationMs: number }
  | { readonly type: 'approval-asked'; readonly askedBy: string | undefined; readonly reason: string | undefined }
  | { readonly type: 'approval-answered'; readonly approved: boolean; readonly message: string | undefined; readonly durationMs: number }
  | { readonly type: 'attempt'; readonly attempt: number; readonly ok: boolean; readonly error?: unknown; readonly durationMs: number }
  | { readonly type: 'settle'; readonly result: ToolResult; readonly durationMs: number };

/** Hands one event to the `call` observers; present on a call's context only when someone taps the hook. */
export type CallObserver = (event: CallEvent) => void;

/** Tells `observe` that `stage` ended now, and returns now (the next piece's start): one clock reading per piece. */
export function tellStage(observe: CallObserver, stage: CallStage, began: number): number {
  const now = performance.now();
  observe({ type: 'stage', stage, durationMs: Math.round((now - began) * 1000) / 1000 });
  return now;
}

/** Milliseconds since `start` (a `performance.now()` reading), rounded to microseconds. */
export function since(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}
