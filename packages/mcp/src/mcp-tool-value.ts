import { deepFreeze, type ContentPart } from '@weir/core';
import { isMcpPart, toContentParts, type McpPart } from './mcp-content.js';

// The content parts that came with a structured value, so `renderToolValue` can show them. Keyed by
// the value object itself: a value replaced by a postExecute tap has no entry and renders the
// default way. A value without `structuredContent` is its parts and needs no entry.
const partsOfValue = new WeakMap<object, readonly McpPart[]>();

/**
 * The weir tool's value for an MCP result: its structured content when the server gave some, else
 * its parts. Deep-frozen (the parts are frozen as they are made): the pipeline keeps a deep-frozen
 * value as it is (its snapshot), so `renderToolValue` finds its parts.
 */
export function toolValue(parts: readonly McpPart[], structuredContent: Readonly<Record<string, unknown>> | undefined): object {
  if (structuredContent === undefined) return parts;
  const value = deepFreeze(structuredContent);
  partsOfValue.set(value, parts);
  return value;
}

/**
 * What the model reads of a value: the server's content blocks as the core's parts (an image
 * reaches a model that takes images), or the text of a lone text block as it is.
 */
export function renderToolValue(value: unknown): string | readonly ContentPart[] {
  if (typeof value === 'object' && value !== null) {
    const parts = partsOfValue.get(value) ?? (isPartList(value) ? value : undefined);
    // One text block, the common answer, is its text: what the core makes of a lone text part.
    if (parts?.length === 1 && parts[0]!.type === 'text') return parts[0]!.text;
    if (parts !== undefined && parts.length > 0) return toContentParts(parts);
  }
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function isPartList(value: object): value is readonly McpPart[] {
  return Array.isArray(value) && value.every(isMcpPart);
}
