import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { ToolResult } from '../tools/tool-result.js';
import { buildSuccess } from './build-success.js';
import type { PipelineContext } from './pipeline-context.js';

/**
 * Stage 4: validate, freeze and render the value, then the createSuccessResult taps. Synchronous
 * unless the output schema validates asynchronously: the caller's one `await` is then the only turn
 * of the microtask queue it costs.
 */
export function createSuccessResult(
  runtime: HarnessRuntime,
  context: PipelineContext,
  value: unknown,
  content: string | undefined,
): ToolResult | Promise<ToolResult> {
  const built = buildSuccess(context, value, content);
  if (built instanceof Promise) return built.then((settled) => afterBuild(runtime, context, settled));
  return afterBuild(runtime, context, built);
}

function afterBuild(runtime: HarnessRuntime, context: PipelineContext, built: ToolResult): ToolResult {
  if (!built.ok || !hasTaps(runtime.hooks.createSuccessResult)) return built;
  return runtime.hooks.createSuccessResult.call(built, context) as unknown as ToolResult;
}
