import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { ToolArguments, ToolCall } from '../tools/call-context.js';
import { failureResult, type ToolFailure, type ToolResult } from '../tools/tool-result.js';
import { awaitPlugin } from './await-plugin.js';
import { createSuccessResult } from './create-success-result.js';
import { dispatchCall } from './dispatch-call.js';
import type { ExecuteOptions } from './execute-options.js';
import { finalizeContent } from './finalize-content.js';
import type { PipelineContext, RunSource } from './pipeline-context.js';
import { createCallContext, elapsed, metaOf } from './pipeline-context.js';
import { tellStage, type CallObserver } from './call-event.js';
import { postExecute } from './post-execute.js';
import { prepareExecution } from './prepare-execution.js';
import type { ToolCallJournal } from './tool-call-journal.js';
import { causeMessage, isCallAborted, unexpectedFailure } from './unexpected-failure.js';

/**
 * Runs one call through the six stages and returns its final, frozen result. Never throws and
 * never rejects: every failure, including a plugin's and a malformed call's, becomes an error
 * result. It does not announce the result: `announceResult` does, so a batch can announce in call
 * order. `runs` holds the run the call belongs to (shared by a batch).
 */
export async function runToolCall(
  runtime: HarnessRuntime,
  call: ToolCall,
  options: ExecuteOptions | undefined,
  runs: RunSource = { run: options?.run },
): Promise<{ result: ToolResult; context: PipelineContext }> {
  const context = createCallContext(runtime, wellFormed(call) ? call : placeholderOf(call), options?.signal, options?.onProgress, runs);
  // One read per call when nobody observes: no observer, no clock readings, no events.
  const observe = hasTaps(runtime.hooks.call) ? startObserving(runtime, context, runs) : undefined;
  if (!wellFormed(call)) return settle(context, malformedCall(context, call));

  let result: ToolResult;
  let began = 0;
  try {
    const preparation = await prepareExecution(runtime, context, options);
    if (preparation.status === 'settled') {
      result = preparation.result;
    } else if (preparation.status === 'substitute') {
      if (observe !== undefined) began = performance.now();
      result = await createSuccessResult(runtime, context, preparation.value, preparation.content);
      if (observe !== undefined) tellStage(observe, 'createSuccessResult', began);
    } else {
      const journal = options?.journal;
      const unrecorded = journal === undefined ? undefined : await recordStart(journal, context, preparation.arguments);
      if (unrecorded !== undefined) {
        result = unrecorded;
      } else {
        if (observe !== undefined) began = performance.now();
        const outcome = await dispatchCall(runtime, context, preparation.arguments);
        if (observe !== undefined) began = tellStage(observe, 'execute', began);
        if (outcome.ok) {
          // Stage 4 is synchronous unless an output schema validates asynchronously: no await then.
          const built = createSuccessResult(runtime, context, outcome.value, undefined);
          result = built instanceof Promise ? await built : built;
        } else {
          result = outcome.result;
        }
        if (observe !== undefined && outcome.ok) tellStage(observe, 'createSuccessResult', began);
      }
    }
  } catch (error) {
    result = unexpectedFailure(context, error);
  }
  context.bodyClosed = true;

  // Without taps stage 5 is skipped outright: no await, so no extra tick on the hot path.
  if (hasTaps(runtime.hooks.postExecute)) {
    if (observe !== undefined) began = performance.now();
    result = await postExecute(runtime, context, result);
    if (observe !== undefined) tellStage(observe, 'postExecute', began);
  }
  if (observe === undefined) return { result: finalizeContent(runtime, context, result), context };
  // Stage 6a is told only when it has something to run: the tool's own transform or taps.
  const transforms = context.tool?.finalizeContent !== undefined || hasTaps(runtime.hooks.finalizeContent);
  began = performance.now();
  result = finalizeContent(runtime, context, result);
  if (transforms) tellStage(observe, 'finalizeContent', began);
  return settle(context, result);
}

/** Sets the call's observer (each event handed to the `call` taps) and tells them the call started. */
function startObserving(runtime: HarnessRuntime, context: PipelineContext, runs: RunSource): CallObserver {
  const hook = runtime.hooks.call;
  const observe: CallObserver = (event) => hook.call(event, context);
  context.observe = observe;
  observe({ type: 'start', queuedMs: runs.startedAt === undefined ? 0 : Math.max(0, Math.round((context.startedAt - runs.startedAt) * 1000) / 1000) });
  return observe;
}

/** The call's end: its observers hear the final result (when there are any). */
function settle(context: PipelineContext, result: ToolResult): { result: ToolResult; context: PipelineContext } {
  context.observe?.({ type: 'settle', result, durationMs: elapsed(context) });
  return { result, context };
}

/** A call the pipeline can read: an object with a string id and a string name. */
function wellFormed(call: unknown): call is ToolCall {
  return typeof call === 'object' && call !== null && typeof (call as ToolCall).id === 'string' && typeof (call as ToolCall).name === 'string';
}

/** What a malformed entry's result can be named after: its id and name when they are strings. */
function placeholderOf(call: unknown): ToolCall {
  const entry = (typeof call === 'object' && call !== null ? call : {}) as Partial<Record<keyof ToolCall, unknown>>;
  return { id: typeof entry.id === 'string' ? entry.id : '', name: typeof entry.name === 'string' ? entry.name : '', arguments: '' };
}

function malformedCall(context: PipelineContext, call: unknown): ToolFailure {
  const what = call === null ? 'null' : Array.isArray(call) ? 'an array' : typeof call;
  return failureResult(
    metaOf(context),
    'INVALID_CALL',
    `This tool call is malformed (${what === 'object' ? 'it needs a string "id" and a string "name"' : `got ${what}`}); it was not run. Send { id, name, arguments }.`,
  );
}

/**
 * Tells the run's journal the call is about to run. Returns `undefined` to go on, or the failure
 * that settles the call when the journal refuses (a start that could not be recorded never runs)
 * or the caller aborts while it records.
 */
async function recordStart(journal: ToolCallJournal, context: PipelineContext, args: ToolArguments): Promise<ToolFailure | undefined> {
  try {
    await awaitPlugin(
      journal.started({ callId: context.callId, callKey: context.callKey, toolName: context.toolName, tier: context.tool!.tier, arguments: args }),
      context.signal,
      { stage: 'execute', name: 'the run journal', boundMs: Infinity },
    );
    return undefined;
  } catch (error) {
    if (isCallAborted(error)) return failureResult(metaOf(context), 'ABORTED', `${context.toolName} was cancelled before it started.`);
    context.logger.error({ err: error, callId: context.callId, tool: context.toolName, stage: 'execute' }, 'the tool call journal refused a start; the call does not run');
    return failureResult(metaOf(context), 'NOT_EXECUTED', `${context.toolName} was not run: its start could not be recorded (${causeMessage(error)}).`);
  }
}
