import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Harness } from '@weir/core';
import { harnessToolListing } from './harness-tool-listing.js';
import type { ServerSdk } from './load-sdk.js';
import { mcpCallScope, type McpLogLevel } from './mcp-call-scope.js';
import type { McpClientRequests } from './mcp-client-of.js';
import type { McpPromptSource } from './mcp-prompt-source.js';
import type { McpResourceSource } from './mcp-resource-source.js';
import { serveCompletion } from './serve-completion.js';
import { servePrompts } from './serve-prompts.js';
import { serveResources } from './serve-resources.js';
import { toCallToolResult } from './to-call-tool-result.js';

/** How often a session checks whether the harness's tools changed, to send `list_changed`. */
export const TOOL_WATCH_MS = 500;
// The approval's own deadline (the harness's) governs the wait; this only keeps the SDK's 60 s default out of the way.
const ELICIT_TIMEOUT_MS = 3_600_000;
const INVALID_PARAMS = -32602;

/** What a session offers besides the harness's tools. */
export interface SessionOffer {
  readonly resources?: McpResourceSource;
  readonly prompts?: McpPromptSource;
  /** How often subscribed resources are checked for a change. */
  readonly pollMs: number;
}

export interface SessionServer {
  readonly server: Server;
  /** Stops watching the tools (and subscribed resources). The caller closes the server. */
  stop(): void;
}

/**
 * One SDK `Server` for one client session, answering from the harness: `tools/list` is the
 * registry's model view; `tools/call` runs the call through the harness pipeline, in the scope of
 * the request, so the approval can ask this client and progress and log lines reach it.
 */
export function createSessionServer(harness: Harness, sdk: ServerSdk, info: { readonly name: string; readonly version: string }, offer: SessionOffer = { pollMs: 1_000 }): SessionServer {
  const { resources, prompts } = offer;
  const server = new sdk.Server(info, {
    capabilities: {
      tools: { listChanged: true },
      logging: {},
      ...(resources === undefined ? {} : { resources: { subscribe: true } }),
      ...(prompts === undefined ? {} : { prompts: {} }),
      ...(resources === undefined && prompts === undefined ? {} : { completions: {} }),
    },
  });
  const stopResources = resources === undefined ? undefined : serveResources(server, sdk, resources, offer.pollMs);
  if (prompts !== undefined) servePrompts(server, sdk, prompts);
  if (resources !== undefined || prompts !== undefined) serveCompletion(server, sdk, { resources, prompts });
  let logLevel: McpLogLevel | undefined;

  server.setRequestHandler(sdk.SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({ tools: harnessToolListing(harness) }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (!harness.tools.has(name)) throw new sdk.McpError(INVALID_PARAMS, `Unknown tool: ${name}. Call tools/list for the tools this server has.`);
    const elicitation = server.getClientCapabilities()?.elicitation !== undefined;
    const scope = {
      notify: (notification: { method: string; params: Record<string, unknown> }) => extra.sendNotification(notification as never),
      progressToken: request.params._meta?.progressToken,
      logLevel: () => logLevel,
      elicit: elicitation
        ? async (message: string, signal: AbortSignal) => {
            const answer = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } }, { signal, relatedRequestId: extra.requestId, timeout: ELICIT_TIMEOUT_MS });
            return answer.action;
          }
        : undefined,
      requests: (signal: AbortSignal) => clientRequests(server, extra.requestId, signal),
    };
    const call = { id: `mcp-${randomUUID()}`, name, arguments: request.params.arguments ?? {} };
    const result = await mcpCallScope.run(scope, () => harness.executeToolCall(call, { signal: extra.signal }));
    return toCallToolResult(result, harness.tools.get(name));
  });

  let seen = harness.tools.schemas();
  const watch = setInterval(() => {
    const now = harness.tools.schemas();
    if (now === seen) return;
    seen = now;
    server.sendToolListChanged().catch(() => undefined);
  }, TOOL_WATCH_MS);
  watch.unref();
  return {
    server,
    stop: () => {
      clearInterval(watch);
      stopResources?.();
    },
  };
}

/** What a tool body may ask the client of one call (see `mcpClientOf`), tied to that request. */
function clientRequests(server: Server, requestId: string | number, signal: AbortSignal): McpClientRequests {
  const capabilities = server.getClientCapabilities();
  const options = { signal, relatedRequestId: requestId, timeout: ELICIT_TIMEOUT_MS };
  return {
    canElicit: capabilities?.elicitation !== undefined,
    canSample: capabilities?.sampling !== undefined,
    elicit: (request) => server.elicitInput({ message: request.message, requestedSchema: request.requestedSchema }, options),
    sample: (request) => server.createMessage(request, options),
  };
}
