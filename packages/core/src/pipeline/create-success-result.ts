import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { ToolResult } from '../tools/tool-result.js';
import { buildSuccess } from './build-success.js';
import type { PipelineContext } from './pipeline-context.js';

/** Stage 4: validate, freeze and render the value, then the createSuccessResult taps. */
export async function createSuccessResult(
  runtime: HarnessRuntime,
  context: PipelineContext,
  value: unknown,
  content: string | undefined,
): Promise<ToolResult> {
  const built = await buildSuccess(context, value, content);
  if (!built.ok || !hasTaps(runtime.hooks.createSuccessResult)) return built;
  return runtime.hooks.createSuccessResult.call(built, context) as unknown as ToolResult;
}
