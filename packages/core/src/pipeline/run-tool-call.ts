import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { ToolArguments, ToolCall } from '../tools/call-context.js';
import { failureResult, type ToolFailure, type ToolResult } from '../tools/tool-result.js';
import { createSuccessResult } from './create-success-result.js';
import { dispatchCall } from './dispatch-call.js';
import type { ExecuteOptions } from './execute-options.js';
import { finalizeContent } from './finalize-content.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { postExecute } from './post-execute.js';
import { prepareExecution } from './prepare-execution.js';
import type { ToolCallJournal } from './tool-call-journal.js';
import { causeMessage, unexpectedFailure } from './unexpected-failure.js';

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
    maxImageBytes: runtime.maxImageBytes,
    attempts: 0,
    onProgress: options?.onProgress,
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

  // Without taps stage 5 is skipped outright: no await, so no extra tick on the hot path.
  if (hasTaps(runtime.hooks.postExecute)) result = await postExecute(runtime, context, result);
  return { result: finalizeContent(runtime, context, result), context };
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
