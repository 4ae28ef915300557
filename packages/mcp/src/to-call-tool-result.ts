import type { ContentPart, RegisteredTool, ToolResult } from '@weir/core';
import { isMcpPart, type McpPart } from './mcp-content.js';

/** An MCP content block as `tools/call` returns it. */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string };

export interface McpCallToolResult {
  [key: string]: unknown;
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A weir result as MCP's `tools/call` answer. A failure is `isError: true` with the text the model
 * would read. A success is what the model reads, its images and resources as their own blocks:
 * the value's MCP parts when it is made of them (a tool proxied from another MCP server: audio and
 * binary resources stay whole), else the result's content parts, else its text; plus
 * `structuredContent` when the tool declares an output schema and its value is an object.
 */
export function toCallToolResult(result: ToolResult, tool: RegisteredTool | undefined): McpCallToolResult {
  if (!result.ok) return { content: [{ type: 'text', text: result.content }], isError: true };
  const parts = partsOf(result);
  const content: McpContentBlock[] =
    parts !== undefined ? parts.map(toBlock) : result.parts !== undefined ? result.parts.map(contentBlock) : [{ type: 'text', text: result.content }];
  const answer: McpCallToolResult = { content };
  if (tool?.outputSchema !== undefined && isRecord(result.value)) answer.structuredContent = result.value as Record<string, unknown>;
  return answer;
}

// A value made of MCP parts (what a tool proxied from an MCP server gives) is read as such.
function partsOf(result: ToolResult & { ok: true }): readonly McpPart[] | undefined {
  const value = result.value;
  if (!Array.isArray(value) || value.length === 0 || !value.every(isMcpPart)) return undefined;
  // Context that post-execute plugins attached goes with the parts, as text.
  return result.context.length === 0 ? value : [...value, ...result.context.map((text) => ({ type: 'text' as const, text }))];
}

function toBlock(part: McpPart): McpContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
      return { type: part.type, data: part.data, mimeType: part.mediaType };
    case 'resource': {
      const mime = part.mediaType === undefined ? {} : { mimeType: part.mediaType };
      if (part.text !== undefined) return { type: 'resource', resource: { uri: part.uri, ...mime, text: part.text } };
      if (part.blob !== undefined) return { type: 'resource', resource: { uri: part.uri, ...mime, blob: part.blob } };
      return { type: 'resource_link', uri: part.uri, name: part.name ?? part.uri, ...mime };
    }
  }
}

// A core content part as a block. An image given by URL (MCP images carry their bytes) is a link.
function contentBlock(part: ContentPart): McpContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return 'data' in part ? { type: 'image', data: part.data, mimeType: part.mediaType } : { type: 'resource_link', uri: part.url, name: 'image', ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }) };
    case 'resource': {
      const mime = part.mediaType === undefined ? {} : { mimeType: part.mediaType };
      return part.text !== undefined ? { type: 'resource', resource: { uri: part.uri, ...mime, text: part.text } } : { type: 'resource_link', uri: part.uri, name: part.name ?? part.uri, ...mime };
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
