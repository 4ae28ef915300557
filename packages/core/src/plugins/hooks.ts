import { AsyncSeriesWaterfallHook, SyncHook, SyncWaterfallHook } from 'tapable';
import type { CallContext } from '../tools/call-context.js';
import { createDisposer, type Disposer } from '../disposer.js';
import { HarnessError } from '../harness-error.js';
import type { StageName } from './hook-failure.js';
import type { Dispatch, Preparation, PrepareAction, ResultAction } from '../pipeline/stage-values.js';
import {
  adaptCreateSuccessTap,
  adaptExecuteTap,
  adaptFinalizeContentTap,
  adaptPostExecuteTap,
  adaptPrepareTap,
  adaptProgressTap,
  adaptResultTap,
  type RawTap,
  type TapAdapter,
  type TapState,
} from './tap-adapters.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { CallEvent } from '../pipeline/call-event.js';
import type { TurnEvent, TurnInfo } from '../agent/turn-event.js';
import { adaptObserverTap } from './observer-tap.js';
import { adaptModelCallTap, type ModelCallRun } from '../agent/model-call-wrap.js';
import { adaptCompactionTap, type CompactionAction, type CompactionInfo, type CompactionPlan } from '../agent/compaction-hook.js';

type Returns<T> = T | undefined | Promise<T | undefined>;

/**
 * The six stage hooks of one harness, created here and nowhere else. Each is a plain tapable
 * hook; a register interceptor adapts every tap to its stage's rules (skip once settled, name
 * the tap in failures, never run once removed).
 */
export function createHooks() {
  return Object.freeze({
    /** 1. tools/pre-execute: rewrite the arguments, block the call, or answer in its place. */
    prepareExecution: adapt(
      new AsyncSeriesWaterfallHook<[Preparation, CallContext], Returns<PrepareAction | Preparation>>(['preparation', 'context'], 'tools/pre-execute'),
      adaptPrepareTap,
    ),
    /** 2. tools/execute: wrap the dispatcher (sandbox, remote dispatch, retry, metrics). */
    execute: adapt(new AsyncSeriesWaterfallHook<[Dispatch, CallContext], Returns<Dispatch>>(['dispatch', 'context'], 'tools/execute'), adaptExecuteTap),
    /** 4. After the body succeeded: block, replace or add context, synchronously. */
    createSuccessResult: adapt(
      new SyncWaterfallHook<[ToolResult, CallContext], ResultAction | undefined>(['result', 'context'], 'tools/create-success-result'),
      adaptCreateSuccessTap,
    ),
    /** 5. tools/post-execute: every result, success or error: accept, block, replace or add context. */
    postExecute: adapt(
      new AsyncSeriesWaterfallHook<[ToolResult, CallContext], Returns<ResultAction>>(['result', 'context'], 'tools/post-execute'),
      adaptPostExecuteTap,
    ),
    /** 6a. The last synchronous transform of the model-visible content. */
    finalizeContent: adapt(
      new SyncWaterfallHook<[string, CallContext], string | undefined>(['content', 'context'], 'tools/finalize-content'),
      adaptFinalizeContentTap,
    ),
    /** 6b. tools/result: observers of the frozen, final result, in call order within a batch. */
    result: adapt(new SyncHook<[ToolResult, CallContext], unknown>(['result', 'context'], 'tools/result'), adaptResultTap),
    /** Beside the stages: observers of a running body's `exec.progress` reports, as they happen. */
    progress: adapt(new SyncHook<[ToolProgress, CallContext], unknown>(['progress', 'context'], 'tools/progress'), adaptProgressTap),
    /** Beside the stages: one call's lifecycle (start, each timed piece, guard verdicts, approval, attempts, settle), for tracing. */
    call: adapt(new SyncHook<[CallEvent, CallContext], unknown>(['event', 'context'], 'tools/call'), adaptObserverTap('call', (context) => ({ logger: (context as CallContext).logger, fields: { callId: (context as CallContext).callId, tool: (context as CallContext).toolName } }))),
    /** Beside the stages: an agent turn's lifecycle and its model calls (request, response, usage), for tracing. */
    turn: adapt(new SyncHook<[TurnEvent, TurnInfo], unknown>(['event', 'turn'], 'agent/turn'), adaptObserverTap('turn', (turn) => ({ logger: (turn as TurnInfo).logger, fields: { runId: (turn as TurnInfo).run.id } }))),
    /**
     * Around each model call of a turn (after its `model-call-start`): a tap returns a run that calls
     * the one it got, to run the call in a scope (a tracing context a provider's own spans nest under).
     */
    modelCall: adapt(new SyncWaterfallHook<[ModelCallRun, TurnInfo], ModelCallRun | undefined>(['run', 'turn'], 'agent/model-call'), adaptModelCallTap),
    /**
     * Before the agent compacts its history (before a step, past the limit, or `agent.compact()`),
     * before the summary call: a tap may cancel it with a reason (a PreCompact hook does).
     */
    compaction: adapt(
      new AsyncSeriesWaterfallHook<[CompactionPlan, CompactionInfo], Returns<CompactionAction>>(['plan', 'info'], 'agent/compaction'),
      adaptCompactionTap,
    ),
  });
}

/** The six stage hooks and the observer hooks beside them; the type is derived from the factory so the two cannot drift apart. */
export type HarnessHooks = ReturnType<typeof createHooks>;

/** The stage names, in pipeline order, as keys of `HarnessHooks`. */
export const STAGES = Object.freeze(['prepareExecution', 'execute', 'createSuccessResult', 'postExecute', 'finalizeContent', 'result'] as const) satisfies readonly (keyof HarnessHooks & StageName)[];

/** Every hook of a harness: the six stages, then the observer hooks beside them. */
export const HOOK_NAMES = Object.freeze([...STAGES, 'progress', 'call', 'turn', 'modelCall', 'compaction'] as const) satisfies readonly (keyof HarnessHooks)[];

const TAP_STATE = Symbol('weir.tapState');

interface MutableHook {
  taps: (RawTap & { [TAP_STATE]?: TapState })[];
  intercept(interceptor: { register: (tap: RawTap) => RawTap }): void;
  _resetCompilation(): void;
}

function adapt<H>(hook: H, adapter: TapAdapter): H {
  (hook as unknown as MutableHook).intercept({
    register: (tap) => {
      const state: TapState = { removed: false };
      return { ...tap, ...adapter(tap, state), [TAP_STATE]: state };
    },
  });
  return hook;
}

/** Any tapable hook, as far as tapping with an undo needs to know it. */
export interface TappableHook {
  readonly taps: readonly unknown[];
}

/**
 * Taps `hook` and returns the undo: tapable has no untap, so the core removes the tap from the
 * hook's list and resets its compiled call. A removed tap never runs again.
 */
export function tapWithDisposer(hook: TappableHook, method: 'tap' | 'tapPromise' | 'tapAsync', options: unknown, fn: unknown): Disposer {
  const mutable = hook as unknown as MutableHook & Record<string, (options: unknown, fn: unknown) => void>;
  if (typeof mutable[method] !== 'function') {
    throw new HarnessError('INVALID_TAP', `This hook does not support ${method}.`);
  }
  if (typeof fn !== 'function') throw new HarnessError('INVALID_TAP', `${method} needs a function, got ${typeof fn}.`);
  const before = new Set(mutable.taps);
  try {
    mutable[method](options, fn);
  } catch (error) {
    // tapable refuses a tap without a name, or tapPromise on a sync hook.
    throw new HarnessError('INVALID_TAP', (error as Error).message, { cause: error });
  }
  const added = mutable.taps.find((tap) => !before.has(tap));
  return createDisposer(() => {
    if (added === undefined) return;
    const index = mutable.taps.indexOf(added);
    if (index === -1) return;
    const state = added[TAP_STATE];
    if (state) state.removed = true;
    mutable.taps.splice(index, 1);
    mutable._resetCompilation();
  });
}

/** True when a hook has taps: untapped hooks are skipped on the hot path. */
export function hasTaps(hook: TappableHook): boolean {
  return hook.taps.length > 0;
}
