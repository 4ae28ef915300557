import { buildSuccess } from '../pipeline/build-success.js';
import { HookFailure, type StageName } from './hook-failure.js';
import { awaitPlugin, isThenable } from '../pipeline/await-plugin.js';
import { readyPreparation } from '../pipeline/ready-preparation.js';
import { deepFreeze } from '../deep-freeze.js';
import { canonicalJson } from '../canonical-json.js';
import type { PipelineContext } from '../pipeline/pipeline-context.js';
import { metaOf } from '../pipeline/pipeline-context.js';
import type { Dispatch, Preparation, PrepareAction, ResultAction } from '../pipeline/stage-values.js';
import { invalidArguments, parseArguments } from '../pipeline/tool-arguments.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import { failureResult, successResult, type ToolResult } from '../tools/tool-result.js';

/** A tap as tapable keeps it. */
export interface RawTap {
  readonly name: string;
  readonly type: 'sync' | 'async' | 'promise';
  readonly fn: (...args: any[]) => any;
}

/** Flipped when the tap is removed, so a removed tap never runs again, even in a call already under way. */
export interface TapState {
  removed: boolean;
}

/** How a stage adapts the taps made on its hook: their type as tapable should run them, and the wrapper. */
export type TapAdapter = (tap: RawTap, state: TapState) => Pick<RawTap, 'type' | 'fn'>;

// Results after a block or a hook failure in a result stage: later taps must not undo the block.
const sealedResults = new WeakSet<ToolResult>();

/** Runs a tap of any tapable type and returns what it returned. */
function callTap(tap: RawTap, value: unknown, context: PipelineContext): unknown {
  if (tap.type !== 'async') return tap.fn(value, context);
  return new Promise((resolve, reject) => {
    tap.fn(value, context, (error: unknown, output: unknown) => (error ? reject(error) : resolve(output)));
  });
}

/**
 * Runs an awaited tap under the call's signal and the harness's bound on plugin code: an abort
 * rejects with `CallAborted`, a tap past the bound or one that throws (anything) with `HookFailure`
 * naming it and the stage. A tap that answers synchronously is not raced: nothing to wait for.
 */
function runBoundedTap(tap: RawTap, value: unknown, context: PipelineContext, stage: StageName): unknown {
  let output: unknown;
  try {
    output = callTap(tap, value, context);
  } catch (error) {
    throw new HookFailure(stage, tap.name, error);
  }
  return isThenable(output) ? awaitPlugin(output, context.signal, { stage, name: tap.name, boundMs: context.hookTimeoutMs, blame: true }) : output;
}

/** Stage 1: rewrite (validated again), block, or substitute; skipped once the call is settled. */
export const adaptPrepareTap: TapAdapter = (tap, state) => ({
  type: 'promise',
  fn: async (preparation: Preparation, context: PipelineContext): Promise<Preparation> => {
    if (preparation.status !== 'ready' || state.removed) return preparation;
    const ran = runBoundedTap(tap, preparation, context, 'prepareExecution');
    const output = isThenable(ran) ? await ran : ran;
    return applyPrepareAction(output, preparation, context, tap.name);
  },
});

async function applyPrepareAction(output: unknown, preparation: Preparation, context: PipelineContext, tapName: string): Promise<Preparation> {
  if (output === undefined || output === preparation) return preparation;
  const action = (typeof output === 'object' && output !== null ? output : {}) as PrepareAction | Preparation;
  if ('status' in action && action.status === 'ready') return rewrite(action.arguments, context, tapName);
  if ('action' in action) {
    switch (action.action) {
      case 'rewrite':
        return rewrite(action.arguments, context, tapName);
      case 'block':
        return { status: 'settled', result: blocked(context, tapName, action.reason) };
      case 'substitute':
        if (action.content !== undefined && typeof action.content !== 'string') {
          throw new HookFailure('prepareExecution', tapName, new TypeError(`substituted content of type ${typeof action.content}; content must be a string`));
        }
        return { status: 'substitute', value: action.value, content: action.content, by: tapName };
    }
  }
  throw new HookFailure('prepareExecution', tapName, new TypeError(`returned ${describeValue(output)}; expected undefined, { action: 'rewrite' | 'block' | 'substitute', ... }`));
}

async function rewrite(args: unknown, context: PipelineContext, tapName: string): Promise<Preparation> {
  const parsed = parseArguments(args as Record<string, unknown>);
  if (!parsed.ok) return { status: 'settled', result: invalidArguments(context, [`(root): ${parsed.problem}`], tapName) };
  // The tool is known here: taps run only after it was resolved.
  const validation = await awaitPlugin(context.tool!.arguments.validate(parsed.value), context.signal, { stage: 'prepareExecution', name: tapName, boundMs: Infinity });
  if (!validation.ok) return { status: 'settled', result: invalidArguments(context, validation.issues, tapName) };
  return readyPreparation(deepFreeze(validation.value as Record<string, unknown>));
}

/** Stage 2: each tap returns a wrapper of the dispatch it was given, or undefined to leave it. */
export const adaptExecuteTap: TapAdapter = (tap, state) => ({
  type: 'promise',
  fn: async (dispatch: Dispatch, context: PipelineContext): Promise<Dispatch> => {
    if (state.removed) return dispatch;
    const ran = runBoundedTap(tap, approvedOnly(dispatch, context, tap.name), context, 'execute');
    const output = isThenable(ran) ? await ran : ran;
    if (output === undefined) return dispatch;
    if (typeof output !== 'function') {
      throw new HookFailure('execute', tap.name, new TypeError(`returned ${describeValue(output)}; expected a function wrapping dispatch, or undefined`));
    }
    return output as Dispatch;
  },
});

/**
 * The dispatch a tap wraps, checking what the tap's wrapper hands on: the body runs with the
 * approved arguments only. The same object or an equal copy (a wrapper that serialised them) goes
 * on as the approved object itself; anything else fails the call closed, naming the tap.
 */
function approvedOnly(inner: Dispatch, context: PipelineContext, tapName: string): Dispatch {
  return (args, exec) => {
    const approved = context.approvedArguments;
    if (approved !== undefined && args !== approved && !sameArguments(args, approved)) {
      return Promise.reject(new HookFailure('execute', tapName, new Error('its wrapper handed the body other arguments than the approved ones')));
    }
    return inner(approved ?? args, exec);
  };
}

function sameArguments(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** Stage 4 (synchronous): taps see successes only and may block, replace or add context. */
export const adaptCreateSuccessTap: TapAdapter = (tap, state) => ({
  type: 'sync',
  fn: (result: ToolResult, context: PipelineContext): ToolResult => {
    if (!result.ok || state.removed) return result;
    let output: unknown;
    try {
      output = tap.fn(result, context);
    } catch (error) {
      throw new HookFailure('createSuccessResult', tap.name, error);
    }
    const next = applyResultAction(output, result, context, tap.name, 'createSuccessResult');
    if (next instanceof Promise) {
      // A sync stage cannot wait; an output schema that validates asynchronously fails closed here.
      next.catch(() => undefined);
      return failureResult(metaOf(context), 'INVALID_OUTPUT', `"${tap.name}" replaced the value in createSuccessResult, but ${context.toolName}'s output schema validates asynchronously; replace it in postExecute instead.`);
    }
    return next;
  },
});

/** Stage 5: accept, block, replace (validated and rendered again) or add context; a block is final. */
export const adaptPostExecuteTap: TapAdapter = (tap, state) => ({
  type: 'promise',
  fn: async (result: ToolResult, context: PipelineContext): Promise<ToolResult> => {
    if (sealedResults.has(result) || state.removed) return result;
    const ran = runBoundedTap(tap, result, context, 'postExecute');
    const output = isThenable(ran) ? await ran : ran;
    return applyResultAction(output, result, context, tap.name, 'postExecute');
  },
});

function applyResultAction(
  output: unknown,
  result: ToolResult,
  context: PipelineContext,
  tapName: string,
  stage: StageName,
): ToolResult | Promise<ToolResult> {
  if (output === undefined || output === result) return result;
  const action = output as ResultAction;
  switch (typeof output === 'object' && output !== null ? action.action : undefined) {
    case 'block': {
      const failure = blocked(context, tapName, (action as { reason: string }).reason, result.context);
      sealedResults.add(failure);
      return failure;
    }
    case 'replace': {
      const replace = action as Extract<ResultAction, { action: 'replace' }>;
      if (replace.content !== undefined && typeof replace.content !== 'string') {
        throw new HookFailure(stage, tapName, new TypeError(`replaced the content with a value of type ${typeof replace.content}; content must be a string`));
      }
      if (isPolicyFailure(result)) {
        // A denial, a block, a timeout... is what happened: no tap can make it read as a success.
        context.logger.warn({ tap: tapName, stage, callId: context.callId, tool: context.toolName, code: (result as { error: { code: string } }).error.code }, `"${tapName}" tried to replace a ${(result as { error: { code: string } }).error.code} result; the failure stands`);
        return result;
      }
      return buildSuccess(context, replace.value, replace.content, result.context);
    }
    case 'addContext': {
      const text = (action as Extract<ResultAction, { action: 'addContext' }>).text;
      if (typeof text !== 'string') break;
      const meta = { ...metaOf(context, Object.freeze([...result.context, text])), durationMs: result.durationMs };
      return result.ok ? successResult(meta, result.value, result.content, result.parts) : failureResult(meta, result.error.code, result.error.message, result.content);
    }
  }
  throw new HookFailure(stage, tapName, new TypeError(`returned ${describeValue(output)}; expected undefined or { action: 'block' | 'replace' | 'addContext', ... }`));
}

/** Stage 6, first half: a synchronous content transform; a tap that throws fails the call closed. */
export const adaptFinalizeContentTap: TapAdapter = (tap, state) => ({
  type: 'sync',
  fn: (content: string, context: PipelineContext): string => {
    if (state.removed) return content;
    let output: unknown;
    try {
      output = tap.fn(content, context);
    } catch (error) {
      throw new HookFailure('finalizeContent', tap.name, error);
    }
    if (output === undefined) return content;
    if (typeof output !== 'string') {
      throw new HookFailure('finalizeContent', tap.name, new TypeError(`returned ${describeValue(output)}; expected a string or undefined`));
    }
    return output;
  },
});

/** Stage 6, second half: observers read the frozen result; what they throw is logged and changes nothing. */
export const adaptResultTap: TapAdapter = (tap, state) => ({
  type: 'sync',
  fn: (result: ToolResult, context: PipelineContext): void => {
    if (state.removed) return;
    try {
      const output = tap.fn(result, context) as unknown;
      // A closure only for an observer that answered with a promise, to report its rejection.
      if (output instanceof Promise) output.catch((error: unknown) => reportResultObserver(error, tap.name, result, context));
    } catch (error) {
      reportResultObserver(error, tap.name, result, context);
    }
  },
});

function reportResultObserver(error: unknown, tapName: string, result: ToolResult, context: PipelineContext): void {
  context.logger.error({ err: error, tap: tapName, stage: 'result', callId: result.callId, tool: result.toolName }, `result observer "${tapName}" failed`);
}

/** Beside the stages: progress observers, like result observers, cannot fail the call. */
export const adaptProgressTap: TapAdapter = (tap, state) => ({
  type: 'sync',
  fn: (update: ToolProgress, context: PipelineContext): void => {
    if (state.removed) return;
    try {
      const output = tap.fn(update, context) as unknown;
      if (output instanceof Promise) output.catch((error: unknown) => reportProgressObserver(error, tap.name, context));
    } catch (error) {
      reportProgressObserver(error, tap.name, context);
    }
  },
});

function reportProgressObserver(error: unknown, tapName: string, context: PipelineContext): void {
  context.logger.error({ err: error, tap: tapName, hook: 'progress', callId: context.callId, tool: context.toolName }, `progress observer "${tapName}" failed`);
}

// Failures no tap can turn into a success: what policy decided, and what settled the call early.
const POLICY_FAILURES: ReadonlySet<string> = new Set(['DENIED', 'BLOCKED', 'HOOK_FAILED', 'TIMEOUT', 'ABORTED', 'NOT_EXECUTED', 'INVALID_CALL', 'ARGUMENTS_MISMATCH']);

function isPolicyFailure(result: ToolResult): boolean {
  return !result.ok && POLICY_FAILURES.has(result.error.code);
}

function blocked(context: PipelineContext, tapName: string, reason: unknown, resultContext?: readonly string[]) {
  const why = typeof reason === 'string' && reason.trim() !== '' ? reason : 'no reason given';
  return failureResult(metaOf(context, resultContext), 'BLOCKED', `Blocked by "${tapName}": ${why}`);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return JSON.stringify(Object.keys(value).slice(0, 5)).replace(/^\[/, 'an object with keys [');
}
