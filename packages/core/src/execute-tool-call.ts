import type { ToolArguments, ToolCall } from './call-context.js';
import { buildSuccess } from './create-success-result.js';
import { dispatchCall } from './dispatch-call.js';
import type { ExecuteOptions } from './harness.js';
import type { HarnessRuntime } from './harness-runtime.js';
import { HookFailure } from './hook-failure.js';
import { hasTaps } from './hooks.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { prepareExecution } from './prepare-execution.js';
import { capContent } from './render-content.js';
import type { ToolCallJournal } from './tool-call-journal.js';
import { failureResult, successResult, type ToolFailure, type ToolResult } from './tool-result.js';

/**
 * Runs one call through the six stages and returns its final, frozen result. Never throws and
 * never rejects: every failure, including a plugin's, becomes an error result. It does not
 * announce the result: `announceResult` does, so a batch can announce in call order.
 */
export async function runToolCall(
  runtime: HarnessRuntime,
  call: ToolCall,
  options: ExecuteOptions | undefined,
): Promise<{ result: ToolResult; context: PipelineContext }> {
  const context: PipelineContext = {
    callId: call.id,
    toolName: call.name,
    tool: runtime.tools.get(call.name),
    rawArguments: call.arguments,
    signal: options?.signal,
    logger: runtime.logger,
    sandbox: runtime.sandbox.current,
    startedAt: performance.now(),
    maxContentChars: runtime.maxContentChars,
    attempts: 0,
  };

  let result: ToolResult;
  try {
    const preparation = await prepareExecution(runtime, context, call, options?.approvals);
    if (preparation.status === 'settled') {
      result = preparation.result;
    } else if (preparation.status === 'substitute') {
      result = await createSuccessResult(runtime, context, preparation.value, preparation.content);
    } else {
      const journal = options?.journal;
      const unrecorded = journal === undefined ? undefined : await recordStart(journal, context, preparation.arguments);
      if (unrecorded !== undefined) {
        result = unrecorded;
      } else {
        const outcome = await dispatchCall(runtime, context, preparation.arguments);
        result = outcome.ok ? await createSuccessResult(runtime, context, outcome.value, undefined) : outcome.result;
      }
    }
  } catch (error) {
    result = unexpectedFailure(context, error);
  }

  if (hasTaps(runtime.hooks.postExecute)) {
    try {
      result = (await runtime.hooks.postExecute.promise(result, context)) as unknown as ToolResult;
    } catch (error) {
      result = unexpectedFailure(context, error);
    }
  }
  return { result: finalizeResult(runtime, context, result), context };
}

/** Stage 6b: tell the observers. Their errors are logged by the tap adapter and change nothing. */
export function announceResult(runtime: HarnessRuntime, result: ToolResult, context: PipelineContext): void {
  if (hasTaps(runtime.hooks.result)) runtime.hooks.result.call(result, context);
}

/** Tells the run's journal a result is final. Like a `result` observer, its error is logged and changes nothing. */
export function tellJournal(journal: ToolCallJournal, result: ToolResult, context: PipelineContext): void {
  try {
    journal.settled(result);
  } catch (error) {
    context.logger.warn({ err: error, callId: context.callId }, 'the tool call journal failed on a result; the result stands');
  }
}

/**
 * Tells the run's journal the call is about to run. Returns `undefined` to go on, or the failure
 * that settles the call when the journal refuses: a start that could not be recorded never runs.
 */
async function recordStart(journal: ToolCallJournal, context: PipelineContext, args: ToolArguments): Promise<ToolFailure | undefined> {
  try {
    await journal.started({ callId: context.callId, toolName: context.toolName, tier: context.tool!.tier, arguments: args });
    return undefined;
  } catch (error) {
    context.logger.error({ err: error, callId: context.callId }, 'the tool call journal refused a start; the call does not run');
    return failureResult(metaOf(context), 'NOT_EXECUTED', `${context.toolName} was not run: its start could not be recorded (${causeMessage(error)}).`);
  }
}

/** Stage 4: validate, freeze and render the value, then the createSuccessResult taps. */
async function createSuccessResult(runtime: HarnessRuntime, context: PipelineContext, value: unknown, content: string | undefined): Promise<ToolResult> {
  const built = await buildSuccess(context, value, content);
  if (!built.ok || !hasTaps(runtime.hooks.createSuccessResult)) return built;
  return runtime.hooks.createSuccessResult.call(built, context) as unknown as ToolResult;
}

/** Stage 6a: the tool's own content transform, the finalizeContent taps, then the attached context. */
function finalizeResult(runtime: HarnessRuntime, context: PipelineContext, result: ToolResult): ToolResult {
  let content = result.content;
  try {
    const ownTransform = context.tool?.finalizeContent;
    if (result.ok && ownTransform) content = ownTransform(content);
    if (typeof content !== 'string') throw new TypeError(`${context.toolName}'s finalizeContent returned ${typeof content}, not a string`);
    if (hasTaps(runtime.hooks.finalizeContent)) content = runtime.hooks.finalizeContent.call(content, context) as string;
  } catch (error) {
    return unexpectedFailure(context, error);
  }
  if (result.context.length > 0) content = capContent([content, ...result.context].join('\n\n'), context.maxContentChars);
  if (content === result.content) return result;
  const meta = metaOf(context, result.context);
  return result.ok ? successResult(meta, result.value, content) : failureResult(meta, result.error.code, result.error.message, content);
}

/** A plugin that threw (HOOK_FAILED, naming it and the stage), or a defect: never a crash. */
function unexpectedFailure(context: PipelineContext, error: unknown): ToolResult {
  if (error instanceof HookFailure) {
    context.logger.warn({ err: error.cause, tap: error.tapName, stage: error.stage, callId: context.callId }, error.message);
    return failureResult(
      metaOf(context),
      'HOOK_FAILED',
      `The call did not complete: plugin "${error.tapName}" failed in ${error.stage} (${causeMessage(error.cause)}).`,
    );
  }
  context.logger.error({ err: error, callId: context.callId }, 'unexpected error in the tool pipeline');
  return failureResult(metaOf(context), 'EXECUTION_FAILED', `${context.toolName} failed: ${causeMessage(error)}`);
}

function causeMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
