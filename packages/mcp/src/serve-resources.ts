import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerSdk } from './load-sdk.js';
import type { McpResourceRefusal, McpResourceSource } from './mcp-resource-source.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

/**
 * Answers `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and
 * `resources/unsubscribe` from `source` for one session; a subscribed resource that changes is
 * announced with `notifications/resources/updated`. Returns what stops the session's polling.
 */
export function serveResources(server: Server, sdk: ServerSdk, source: McpResourceSource, pollMs: number): () => void {
  const fail = (refused: McpResourceRefusal) => new sdk.McpError(refused.reason === 'not-found' ? RESOURCE_NOT_FOUND : INVALID_PARAMS, refused.message);
  const subscriptions = new ResourceSubscriptions(source, (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined), pollMs);

  server.setRequestHandler(sdk.ListResourcesRequestSchema, async (request) => {
    const page = await source.list(request.params?.cursor);
    if ('ok' in page) throw fail(page);
    return page.nextCursor === undefined ? { resources: [...page.resources] } : { resources: [...page.resources], nextCursor: page.nextCursor };
  });
  server.setRequestHandler(sdk.ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...source.templates] }));
  server.setRequestHandler(sdk.ReadResourceRequestSchema, async (request) => {
    const read = await source.read(request.params.uri);
    if (!read.ok) throw fail(read);
    return { contents: [...read.contents] };
  });
  server.setRequestHandler(sdk.SubscribeRequestSchema, async (request) => {
    const refused = await subscriptions.add(request.params.uri);
    if (refused !== undefined) throw new sdk.McpError(INVALID_PARAMS, refused);
    return {};
  });
  server.setRequestHandler(sdk.UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  return () => subscriptions.stop();
}
