import type { ContentPart } from '@weir/core';
/**
 * One part of what an MCP tool returned, in weir's words: text, an image (base64 `data` with its
 * `mediaType`), audio, or a resource (a link, or an embedded resource with its text). Blobs keep
 * their bytes as base64; nothing is dropped.
 */
export type McpPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mediaType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mediaType: string }
  | {
      readonly type: 'resource';
      readonly uri: string;
      readonly name?: string;
      readonly mediaType?: string;
      readonly text?: string;
      /** Base64 bytes of an embedded binary resource. */
      readonly blob?: string;
    };

type Block = { readonly type?: unknown; readonly [key: string]: unknown };

/**
 * Converts the content blocks as the server sent them: every known block is kept, and an unknown
 * one (or a known one missing its data) becomes one line of text naming it: never dropped silently,
 * and never the loss of the whole result. The list and its parts are frozen as they are made: the pipeline keeps deep-frozen plain
 * data as it is, with no copy and no walk to freeze it.
 */
export function toParts(content: readonly unknown[]): readonly McpPart[] {
  const parts = new Array<McpPart>(content.length);
  for (let index = 0; index < content.length; index += 1) parts[index] = Object.freeze(toPart(content[index]));
  return Object.freeze(parts);
}

function toPart(raw: unknown): McpPart {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return note(`[a content block that is not an object (${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}) the harness could not read]`);
  const block = raw as Block;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : malformed('text', 'text');
    case 'image':
    case 'audio':
      if (typeof block.data !== 'string') return malformed(block.type, 'data');
      return { type: block.type, data: block.data, mediaType: str(block.mimeType) ?? 'application/octet-stream' };
    case 'resource_link':
      if (typeof block.uri !== 'string') return malformed('resource_link', 'uri');
      return withoutUndefined({ type: 'resource', uri: block.uri, name: str(block.name), mediaType: str(block.mimeType) });
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      if (typeof resource.uri !== 'string') return malformed('resource', 'resource.uri');
      return withoutUndefined({
        type: 'resource',
        uri: resource.uri,
        mediaType: str(resource.mimeType),
        text: str(resource.text),
        blob: str(resource.blob),
      });
    }
    default: {
      const type = typeof block.type === 'string' ? JSON.stringify(block.type.length > 40 ? `${block.type.slice(0, 40)}…` : block.type) : 'without a type';
      return note(`[a content block of type ${type} the harness does not know; left out]`);
    }
  }
}

function note(text: string): McpPart {
  return { type: 'text', text };
}

function malformed(type: string, field: string): McpPart {
  return note(`[${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} content block without a valid ${field}; left out]`);
}

/** True when `value` is one part as `toParts` makes them (a tool proxied from an MCP server gives these). */
export function isMcpPart(value: unknown): value is McpPart {
  if (typeof value !== 'object' || value === null) return false;
  const part = value as Block;
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string';
    case 'image':
    case 'audio':
      return typeof part.data === 'string' && typeof part.mediaType === 'string';
    case 'resource':
      return typeof part.uri === 'string';
    default:
      return false;
  }
}

// The line a text-only reader gets for a part: text as it is, a short label for anything else.
function partText(part: McpPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type}: ${part.mediaType}, ${base64Bytes(part.data)} bytes]`;
    case 'resource': {
      const label = `[resource: ${part.name !== undefined ? `${part.name} ` : ''}${part.uri}${part.mediaType !== undefined ? `, ${part.mediaType}` : ''}]`;
      if (part.text !== undefined) return `${label}\n${part.text}`;
      if (part.blob !== undefined) return `${label.slice(0, -1)}, ${base64Bytes(part.blob)} bytes]`;
      return label;
    }
  }
}

/**
 * What the model reads, as the core's content parts: text as it is, an image as an image (so a model
 * that takes images sees it), a resource as a resource part whose text names it (and holds its
 * text, when it has some), and audio, which no model adapter carries, as a line naming it.
 */
export function toContentParts(parts: readonly McpPart[]): ContentPart[] {
  return parts.map((part): ContentPart => {
    switch (part.type) {
      case 'text':
        return part;
      case 'image':
        return { type: 'image', data: part.data, mediaType: part.mediaType };
      case 'audio':
        return { type: 'text', text: partText(part) };
      case 'resource':
        return withoutUndefined({ type: 'resource', uri: part.uri, name: part.name, mediaType: part.mediaType, text: partText(part) }) as ContentPart;
    }
  });
}

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
