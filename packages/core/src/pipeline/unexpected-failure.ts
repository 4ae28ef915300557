import { HookFailure } from '../plugins/hook-failure.js';
import { failureResult, type ToolResult } from '../tools/tool-result.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';

/** A plugin that threw (HOOK_FAILED, naming it and the stage), or a defect: never a crash. */
export function unexpectedFailure(context: PipelineContext, error: unknown): ToolResult {
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

/** The message of whatever was thrown. */
export function causeMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
