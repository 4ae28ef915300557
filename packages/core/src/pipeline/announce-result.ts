import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { PipelineContext } from './pipeline-context.js';
import type { ToolCallJournal } from './tool-call-journal.js';

/** Stage 6b: tell the observers. Their errors are logged by the tap adapter and change nothing. */
export function announceResult(runtime: HarnessRuntime, result: ToolResult, context: PipelineContext): void {
  if (hasTaps(runtime.hooks.result)) runtime.hooks.result.call(result, context);
}

/** Tells the run's journal a result is final. Like a `result` observer, its error is logged and changes nothing. */
export function tellJournal(journal: ToolCallJournal, result: ToolResult, context: PipelineContext): void {
  try {
    journal.settled(result);
  } catch (error) {
    context.logger.warn({ err: error, callId: context.callId, tool: context.toolName, stage: 'result' }, 'the tool call journal failed on a result; the result stands');
  }
}
