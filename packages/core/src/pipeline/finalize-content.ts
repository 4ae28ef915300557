import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import { capContent } from '../tools/render-content.js';
import { failureResult, successResult, type ToolResult } from '../tools/tool-result.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { unexpectedFailure } from './unexpected-failure.js';

/** Stage 6a: the tool's own content transform, the finalizeContent taps, then the attached context. */
export function finalizeContent(runtime: HarnessRuntime, context: PipelineContext, result: ToolResult): ToolResult {
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
