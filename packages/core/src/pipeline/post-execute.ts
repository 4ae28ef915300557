import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { PipelineContext } from './pipeline-context.js';
import { unexpectedFailure } from './unexpected-failure.js';

/**
 * Stage 5: the postExecute taps see every result, success or failure, and may accept, block,
 * replace it or add context. A tap that throws fails the call closed. The call runner skips this
 * stage when it has no taps (without a tick); it still returns `result` unchanged then.
 */
export async function postExecute(runtime: HarnessRuntime, context: PipelineContext, result: ToolResult): Promise<ToolResult> {
  if (!hasTaps(runtime.hooks.postExecute)) return result;
  try {
    return (await runtime.hooks.postExecute.promise(result, context)) as unknown as ToolResult;
  } catch (error) {
    return unexpectedFailure(context, error);
  }
}
