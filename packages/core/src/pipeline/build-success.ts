import { deepFreeze } from '../deep-freeze.js';
import { snapshotValue } from './snapshot-value.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { checkParts, hasRichParts, textOfParts, type ContentPart } from '../tools/content-part.js';
import { capContent, capParts, renderValue } from '../tools/render-content.js';
import { failureResult, successResult, type ToolResult } from '../tools/tool-result.js';
import type { Validation } from '../tools/schema-validator.js';

/**
 * Stage 4 without its taps: validate `value` against the tool's `output.schema`, snapshot it,
 * render it (the tool's `render`, or the default) and cap the content. `content`, when given,
 * replaces the render. Synchronous unless the output schema validates asynchronously.
 */
export function buildSuccess(
  context: PipelineContext,
  value: unknown,
  content: string | undefined,
  resultContext?: readonly string[],
): ToolResult | Promise<ToolResult> {
  const outputSchema = context.tool?.outputSchema;
  if (outputSchema === undefined) return renderSuccess(context, value, content, resultContext);
  const validation = outputSchema.validate(value);
  if (validation instanceof Promise) {
    return validation.then((settled) => afterValidation(context, settled, content, resultContext));
  }
  return afterValidation(context, validation, content, resultContext);
}

function afterValidation(
  context: PipelineContext,
  validation: Validation,
  content: string | undefined,
  resultContext: readonly string[] | undefined,
): ToolResult {
  if (!validation.ok && validation.schemaError !== undefined) {
    return failureResult(metaOf(context, resultContext), 'INVALID_SCHEMA', `${context.toolName} ran, but its result cannot be checked: ${validation.schemaError}. This is a fault of the tool.`);
  }
  if (!validation.ok) {
    return failureResult(
      metaOf(context, resultContext),
      'INVALID_OUTPUT',
      `${context.toolName} returned a value that does not match its output schema:\n- ${validation.issues.join('\n- ')}`,
    );
  }
  return renderSuccess(context, validation.value, content, resultContext);
}

function renderSuccess(
  context: PipelineContext,
  value: unknown,
  content: string | undefined,
  resultContext: readonly string[] | undefined,
): ToolResult {
  let frozen: unknown;
  try {
    // A snapshot of plain data, frozen: the tool's own objects (a cache, a class) stay its own.
    frozen = snapshotValue(value);
  } catch (error) {
    return failureResult(
      metaOf(context, resultContext),
      'INVALID_OUTPUT',
      `${context.toolName} returned a value that cannot be kept: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let rendered: string | readonly ContentPart[];
  if (content !== undefined) {
    rendered = content;
  } else {
    const render = context.tool?.output?.render;
    try {
      rendered = render ? render(frozen) : renderValue(frozen);
    } catch (error) {
      return failureResult(
        metaOf(context, resultContext),
        'INVALID_OUTPUT',
        `${context.toolName} returned a value its renderer could not display: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (typeof rendered !== 'string') return renderParts(context, frozen, rendered, resultContext);
  }
  return successResult(metaOf(context, resultContext), frozen, capContent(rendered, context.maxContentChars));
}

/** A renderer that returned parts: checked, capped, and kept as parts only when there is more than text. */
function renderParts(context: PipelineContext, frozen: unknown, rendered: unknown, resultContext: readonly string[] | undefined): ToolResult {
  const problem = checkParts(rendered);
  if (problem !== undefined) {
    const what = Array.isArray(rendered) ? `content parts that are not valid (${problem})` : `${rendered === null ? 'null' : typeof rendered}, not a string or content parts`;
    return failureResult(metaOf(context, resultContext), 'INVALID_OUTPUT', `${context.toolName}'s renderer returned ${what}.`);
  }
  const parts = rendered as readonly ContentPart[];
  if (!hasRichParts(parts)) return successResult(metaOf(context, resultContext), frozen, capContent(textOfParts(parts), context.maxContentChars));
  const capped = capParts(deepFreeze(structuredClone(parts)), context.maxContentChars, context.maxImageBytes);
  return successResult(metaOf(context, resultContext), frozen, textOfParts(capped), capped);
}
