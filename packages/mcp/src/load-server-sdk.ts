// Type-only imports are erased: the SDK's server side is loaded by `loadServerSdk`, when served.
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/server/stdio.js';
import type * as StreamableHttpModule from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

/** The parts of the SDK a server needs. */
export interface ServerSdk {
  readonly Server: typeof ServerModule.Server;
  readonly StdioServerTransport: typeof StdioModule.StdioServerTransport;
  readonly StreamableHTTPServerTransport: typeof StreamableHttpModule.StreamableHTTPServerTransport;
  readonly McpError: typeof TypesModule.McpError;
  readonly ListToolsRequestSchema: typeof TypesModule.ListToolsRequestSchema;
  readonly CallToolRequestSchema: typeof TypesModule.CallToolRequestSchema;
  readonly SetLevelRequestSchema: typeof TypesModule.SetLevelRequestSchema;
  readonly isInitializeRequest: typeof TypesModule.isInitializeRequest;
}

let serverSdk: Promise<ServerSdk> | undefined;

/** Loads the MCP SDK's server side once, when a harness is first served (see `loadClientSdk`). */
export function loadServerSdk(): Promise<ServerSdk> {
  serverSdk ??= (async () => {
    const [server, stdio, streamableHttp, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Server: server.Server,
      StdioServerTransport: stdio.StdioServerTransport,
      StreamableHTTPServerTransport: streamableHttp.StreamableHTTPServerTransport,
      McpError: types.McpError,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      CallToolRequestSchema: types.CallToolRequestSchema,
      SetLevelRequestSchema: types.SetLevelRequestSchema,
      isInitializeRequest: types.isInitializeRequest,
    };
  })();
  serverSdk.catch(() => {
    serverSdk = undefined;
  });
  return serverSdk;
}
