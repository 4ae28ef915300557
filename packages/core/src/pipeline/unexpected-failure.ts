import { describeThrown, HookFailure } from '../plugins/hook-failure.js';
import { CallAborted } from './await-plugin.js';
import { failureResult, type ToolResult } from '../tools/tool-result.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';

/** A plugin that threw (HOOK_FAILED, naming it and the stage), or a defect: never a crash. */
export function unexpectedFailure(context: PipelineContext, error: unknown): ToolResult {
  if (isCallAborted(error)) return failureResult(metaOf(context), 'ABORTED', `${context.toolName} was cancelled before it finished.`);
  if (error instanceof HookFailure) {
    context.logger.warn({ err: error.cause, tap: error.tapName, stage: error.stage, callId: context.callId, tool: context.toolName }, error.message);
    return failureResult(
      metaOf(context),
      'HOOK_FAILED',
      `The call did not complete: plugin "${error.tapName}" failed in ${error.stage} (${causeMessage(error.cause)}).`,
    );
  }
  context.logger.error({ err: error, callId: context.callId, tool: context.toolName }, 'unexpected error in the tool pipeline');
  return failureResult(metaOf(context), 'EXECUTION_FAILED', `${context.toolName} failed: ${causeMessage(error)}`);
}

/** The message of whatever was thrown (a non-Error too, even one whose `toString` throws). */
export function causeMessage(error: unknown): string {
  return describeThrown(error);
}

/** True for the rejection a piece of plugin code gets when the caller aborted while it was awaited. */
export function isCallAborted(error: unknown): boolean {
  return error instanceof CallAborted;
}
