// Type-only imports are erased: the SDK itself is loaded by `loadClientSdk`, when a server starts.
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as SseModule from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StreamableHttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as StdioFramingModule from '@modelcontextprotocol/sdk/shared/stdio.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

/** The parts of the SDK a client needs. */
export interface ClientSdk {
  readonly Client: typeof ClientModule.Client;
  readonly StreamableHTTPClientTransport: typeof StreamableHttpModule.StreamableHTTPClientTransport;
  readonly SSEClientTransport: typeof SseModule.SSEClientTransport;
  readonly ReadBuffer: typeof StdioFramingModule.ReadBuffer;
  readonly serializeMessage: typeof StdioFramingModule.serializeMessage;
  readonly McpError: typeof TypesModule.McpError;
  readonly ToolListChangedNotificationSchema: typeof TypesModule.ToolListChangedNotificationSchema;
  readonly ElicitRequestSchema: typeof TypesModule.ElicitRequestSchema;
}

let clientSdk: Promise<ClientSdk> | undefined;

/**
 * Loads the MCP SDK's client side once, on first use. Importing `@weir/mcp` costs nothing until a
 * server is started: the SDK (with zod, ajv and its transports) is a few hundred modules, and a
 * CLI that lists its plugins should not pay for them at start.
 */
export function loadClientSdk(): Promise<ClientSdk> {
  clientSdk ??= (async () => {
    const [client, sse, streamableHttp, framing, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Client: client.Client,
      StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
      SSEClientTransport: sse.SSEClientTransport,
      ReadBuffer: framing.ReadBuffer,
      serializeMessage: framing.serializeMessage,
      McpError: types.McpError,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
      ElicitRequestSchema: types.ElicitRequestSchema,
    };
  })();
  clientSdk.catch(() => {
    clientSdk = undefined;
  });
  return clientSdk;
}
