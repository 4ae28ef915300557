import { namespacedName, ToolCallError, type ToolDefinition } from '@weir/core';
import { toParts, type McpPart } from './mcp-content.js';
import type { McpServerLink } from './mcp-server-link.js';
import { renderToolValue } from './mcp-tool-value.js';

/** The server tool name the resource tool takes after the namespace: `<name>__resources`. */
export const RESOURCE_TOOL = 'resources';
/** Most resources one `list` shows: the model pages with the cursor for more. */
const LISTED = 100;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The model's way to a server's resources: one tool per server that offers them, `list` (a page of
 * uri, name, media type and description) and `read` (the contents as parts: text as text, an
 * image blob as an image, another blob as a resource part naming it). Read-only: the protocol
 * defines `resources/read` as a read, and it runs through the pipeline like any tool.
 */
export function resourceTool(server: string, link: McpServerLink): ToolDefinition<{ readonly action: 'list' | 'read'; readonly uri?: string; readonly cursor?: string }> {
  return {
    name: namespacedName(server, RESOURCE_TOOL),
    description: `Lists and reads the resources (files, records, documents) the MCP server "${server}" offers. action "list" shows them (uri, name, type), a page at a time (pass the cursor it gives for more); action "read" with a uri gives one resource's contents.`,
    tier: 'read-only',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['list', 'read'] },
        uri: { type: 'string', minLength: 1, description: 'The resource to read (from list).' },
        cursor: { type: 'string', description: 'The cursor list gave, for the next page.' },
      },
      required: ['action'],
      additionalProperties: false,
    },
    output: { render: renderToolValue },
    execute: async ({ action, uri, cursor }, exec) => {
      if (action === 'list') {
        const result = await link.request('resources/list', cursor === undefined ? {} : { cursor }, exec);
        const resources = Array.isArray(result.resources) ? result.resources.filter(isRecord).slice(0, LISTED) : [];
        const lines = resources.map((resource) => {
          const type = typeof resource.mimeType === 'string' ? ` (${resource.mimeType})` : '';
          const about = typeof resource.description === 'string' ? `: ${resource.description.split('\n', 1)[0]}` : '';
          return `- ${String(resource.uri)} ${typeof resource.name === 'string' ? resource.name : ''}${type}${about}`;
        });
        const more = typeof result.nextCursor === 'string' ? `\nMore: call again with cursor ${JSON.stringify(result.nextCursor)}.` : '';
        return lines.length === 0 ? `The server "${server}" lists no resources.${more}` : `${lines.join('\n')}${more}`;
      }
      if (uri === undefined) throw new ToolCallError('INVALID_ARGUMENTS', 'action "read" needs the uri of a resource (call action "list" to see them).');
      const result = await link.request('resources/read', { uri }, exec);
      const contents = Array.isArray(result.contents) ? result.contents.filter(isRecord) : [];
      // An image blob shows as an image; the rest as embedded resources (text kept, a blob named).
      const blocks = contents.map((content) =>
        typeof content.blob === 'string' && typeof content.mimeType === 'string' && content.mimeType.startsWith('image/')
          ? { type: 'image', data: content.blob, mimeType: content.mimeType }
          : { type: 'resource', resource: content },
      );
      const parts: readonly McpPart[] = toParts(blocks);
      if (parts.length === 0) return `The resource ${uri} has no contents.`;
      return parts;
    },
  };
}
