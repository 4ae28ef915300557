import { namespacedName, ToolCallError, type ToolDefinition, type ToolExecution } from '@weir/core';
import { toParts, type McpPart } from './mcp-content.js';
import type { McpServerLink } from './mcp-server-link.js';
import { renderToolValue } from './mcp-tool-value.js';
import { MAX_RESOURCE_SUBSCRIPTIONS, type ResourceUpdates } from './resource-updates.js';

/** The server tool name the resource tool takes after the namespace: `<name>__resources`. */
export const RESOURCE_TOOL = 'resources';
/** Most resources one `list` shows: the model pages with the cursor for more. */
const LISTED = 100;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

type ResourceAction = 'list' | 'templates' | 'read' | 'subscribe' | 'unsubscribe';

/**
 * The model's way to a server's resources: one tool per server that offers them, `list` (a page of
 * uri, name, media type and description), `templates` (the URI templates a server reads, such as
 * `file:///{path}`), `read` (the contents as parts: text as text, an image blob as an image,
 * another blob as a resource part naming it), and, where the server offers it, `subscribe` and
 * `unsubscribe` (a change is told with the next tool result, see `ResourceUpdates`). Read-only: the
 * protocol defines these requests as reads, and the tool runs through the pipeline like any tool.
 */
export function resourceTool(server: string, link: McpServerLink, updates: ResourceUpdates): ToolDefinition<{ readonly action: ResourceAction; readonly uri?: string; readonly cursor?: string }> {
  const name = namespacedName(server, RESOURCE_TOOL);
  return {
    name,
    description: `Lists and reads the resources (files, records, documents) the MCP server "${server}" offers. action "list" shows them (uri, name, type), a page at a time (pass the cursor it gives for more); "templates" shows the URI templates it can read (fill one in and read it); "read" with a uri gives one resource's contents; "subscribe" with a uri asks to be told when it changes (told beside a later tool result), "unsubscribe" stops that.`,
    tier: 'read-only',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['list', 'templates', 'read', 'subscribe', 'unsubscribe'] },
        uri: { type: 'string', minLength: 1, description: 'The resource to read, subscribe or unsubscribe to (from list, or a template filled in).' },
        cursor: { type: 'string', description: 'The cursor list or templates gave, for the next page.' },
      },
      required: ['action'],
      additionalProperties: false,
    },
    output: { render: renderToolValue },
    execute: async ({ action, uri, cursor }, exec) => {
      if (action === 'list') {
        const result = await link.request('resources/list', cursor === undefined ? {} : { cursor }, exec);
        const resources = Array.isArray(result.resources) ? result.resources.filter(isRecord).slice(0, LISTED) : [];
        return listing(resources.map((resource) => entry(String(resource.uri), resource)), result, `The server "${server}" lists no resources.`);
      }
      if (action === 'templates') {
        const result = await link.request('resources/templates/list', cursor === undefined ? {} : { cursor }, exec);
        const templates = Array.isArray(result.resourceTemplates) ? result.resourceTemplates.filter(isRecord).slice(0, LISTED) : [];
        return listing(templates.map((template) => entry(String(template.uriTemplate), template)), result, `The server "${server}" lists no resource templates.`);
      }
      if (uri === undefined) throw new ToolCallError('INVALID_ARGUMENTS', `action "${action}" needs the uri of a resource (call action "list" to see them).`);
      if (action === 'subscribe' || action === 'unsubscribe') return subscription(action, uri, { server, link, updates, exec });
      const result = await link.request('resources/read', { uri }, exec);
      updates.read(uri);
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

/** `subscribe` or `unsubscribe` to one resource, where the server offers subscriptions. */
async function subscription(verb: 'subscribe' | 'unsubscribe', target: string, { server, link, updates, exec }: { server: string; link: McpServerLink; updates: ResourceUpdates; exec: ToolExecution }): Promise<string> {
  if (!link.offersResourceSubscriptions) throw new ToolCallError('MCP_ERROR', `The server "${server}" does not offer subscriptions to its resources; read ${target} again when you need it.`);
  if (verb === 'unsubscribe') {
    if (!updates.has(target)) return `Not subscribed to ${target}.`;
    await link.request('resources/unsubscribe', { uri: target }, exec);
    updates.delete(target);
    return `Unsubscribed from ${target}.`;
  }
  if (updates.has(target)) return `Already subscribed to ${target}.`;
  if (updates.size >= MAX_RESOURCE_SUBSCRIPTIONS) throw new ToolCallError('MCP_ERROR', `${MAX_RESOURCE_SUBSCRIPTIONS} resources of "${server}" are subscribed to, the most weir keeps; unsubscribe from one first.`);
  await link.request('resources/subscribe', { uri: target }, exec);
  updates.add(target);
  return `Subscribed to ${target}: when the server says it changed, you are told beside a later tool result.`;
}

/** One line of a listing: the uri (or template), its name, media type and the first line of its description. */
function entry(uri: string, item: Record<string, unknown>): string {
  const type = typeof item.mimeType === 'string' ? ` (${item.mimeType})` : '';
  const about = typeof item.description === 'string' ? `: ${item.description.split('\n', 1)[0]}` : '';
  return `- ${uri} ${typeof item.name === 'string' ? item.name : ''}${type}${about}`;
}

function listing(lines: readonly string[], result: Record<string, unknown>, empty: string): string {
  const more = typeof result.nextCursor === 'string' ? `\nMore: call again with cursor ${JSON.stringify(result.nextCursor)}.` : '';
  return lines.length === 0 ? `${empty}${more}` : `${lines.join('\n')}${more}`;
}
