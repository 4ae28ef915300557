import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import { textOfParts, type ContentPart } from '../tools/content-part.js';
import { capContent, capParts } from '../tools/render-content.js';
import { failureResult, successResult, type ToolResult } from '../tools/tool-result.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { unexpectedFailure } from './unexpected-failure.js';

/** Stage 6a: the tool's own content transform, the finalizeContent taps, then the attached context. */
export function finalizeContent(runtime: HarnessRuntime, context: PipelineContext, result: ToolResult): ToolResult {
  if (result.parts !== undefined) return finalizeParts(runtime, context, result, result.parts);
  let content = result.content;
  try {
    const ownTransform = context.tool?.finalizeContent;
    if (result.ok && ownTransform) content = ownTransform(content);
    if (typeof content !== 'string') throw new TypeError(`${context.toolName}'s finalizeContent returned ${typeof content}, not a string`);
    if (hasTaps(runtime.hooks.finalizeContent)) content = runtime.hooks.finalizeContent.call(content, context) as string;
  } catch (error) {
    return unexpectedFailure(context, error);
  }
  if (result.context.length > 0) content = [content, ...result.context].join('\n\n');
  // The cap holds after every transform: a tap cannot inflate what the model reads past it.
  if (content !== result.content) content = capContent(content, context.maxContentChars);
  if (content === result.content) return result;
  const meta = metaOf(context, result.context);
  return result.ok ? successResult(meta, result.value, content) : failureResult(meta, result.error.code, result.error.message, content);
}

/**
 * Stage 6a for content with images or resources: the same transforms, once per text part (a
 * redactor sees every text the model will read, and never an image's bytes), then the attached
 * context as a last text part, then the caps again.
 */
function finalizeParts(runtime: HarnessRuntime, context: PipelineContext, result: ToolResult, parts: readonly ContentPart[]): ToolResult {
  const ownTransform = result.ok ? context.tool?.finalizeContent : undefined;
  const tapped = hasTaps(runtime.hooks.finalizeContent);
  let changed = false;
  const next: ContentPart[] = [];
  try {
    for (const part of parts) {
      if (part.type !== 'text' || (ownTransform === undefined && !tapped)) {
        next.push(part);
        continue;
      }
      let text: unknown = part.text;
      if (ownTransform) text = ownTransform(text as string);
      if (typeof text !== 'string') throw new TypeError(`${context.toolName}'s finalizeContent returned ${typeof text}, not a string`);
      if (tapped) text = runtime.hooks.finalizeContent.call(text as string, context);
      if (text === part.text) {
        next.push(part);
      } else {
        next.push(Object.freeze({ type: 'text', text: text as string }));
        changed = true;
      }
    }
  } catch (error) {
    return unexpectedFailure(context, error);
  }
  if (result.context.length > 0) {
    next.push(Object.freeze({ type: 'text', text: result.context.join('\n\n') }));
    changed = true;
  }
  if (!changed) return result;
  const capped = capParts(Object.freeze(next), context.maxContentChars, context.maxImageBytes);
  const meta = metaOf(context, result.context);
  const content = textOfParts(capped);
  return result.ok ? successResult(meta, result.value, content, capped) : failureResult(meta, result.error.code, result.error.message, content);
}
