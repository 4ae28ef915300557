// Type-only imports are erased: the SDK itself is loaded by `loadClientSdk` and `loadServerSdk`,
// when a server is started or a harness is served.
import type * as AuthModule from '@modelcontextprotocol/sdk/client/auth.js';
import type * as AuthExtensionsModule from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as SseModule from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StreamableHttpClientModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as StdioServerModule from '@modelcontextprotocol/sdk/server/stdio.js';
import type * as StreamableHttpServerModule from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as StdioFramingModule from '@modelcontextprotocol/sdk/shared/stdio.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

/** The parts of the SDK a client needs. */
export interface ClientSdk {
  readonly Client: typeof ClientModule.Client;
  readonly StreamableHTTPClientTransport: typeof StreamableHttpClientModule.StreamableHTTPClientTransport;
  readonly SSEClientTransport: typeof SseModule.SSEClientTransport;
  /** What the Streamable HTTP client throws for an HTTP status it cannot use (`code` is the status). */
  readonly StreamableHTTPError: typeof StreamableHttpClientModule.StreamableHTTPError;
  readonly deserializeMessage: typeof StdioFramingModule.deserializeMessage;
  readonly serializeMessage: typeof StdioFramingModule.serializeMessage;
  readonly McpError: typeof TypesModule.McpError;
  /** Any result object: what `tools/list` and `tools/call` answers are read with, field by field, by weir. */
  readonly ResultSchema: typeof TypesModule.ResultSchema;
  readonly ToolListChangedNotificationSchema: typeof TypesModule.ToolListChangedNotificationSchema;
  readonly PromptListChangedNotificationSchema: typeof TypesModule.PromptListChangedNotificationSchema;
  readonly ResourceUpdatedNotificationSchema: typeof TypesModule.ResourceUpdatedNotificationSchema;
  readonly ElicitRequestSchema: typeof TypesModule.ElicitRequestSchema;
  readonly CreateMessageRequestSchema: typeof TypesModule.CreateMessageRequestSchema;
  readonly ListRootsRequestSchema: typeof TypesModule.ListRootsRequestSchema;
  /** The OAuth client flow (discovery, registration, PKCE, code exchange, refresh) run on a server's 401 or 403. */
  readonly auth: typeof AuthModule.auth;
  /** The `resource_metadata`, `scope` and `error` of a response's `WWW-Authenticate` challenge. */
  readonly extractWWWAuthenticateParams: typeof AuthModule.extractWWWAuthenticateParams;
  /** Signs a `private_key_jwt` client assertion (RFC 7523) for each token request of the client credentials grant. */
  readonly createPrivateKeyJwtAuth: typeof AuthExtensionsModule.createPrivateKeyJwtAuth;
}

/** The parts of the SDK a server needs. */
export interface ServerSdk {
  readonly Server: typeof ServerModule.Server;
  readonly StdioServerTransport: typeof StdioServerModule.StdioServerTransport;
  readonly StreamableHTTPServerTransport: typeof StreamableHttpServerModule.StreamableHTTPServerTransport;
  readonly McpError: typeof TypesModule.McpError;
  readonly ListToolsRequestSchema: typeof TypesModule.ListToolsRequestSchema;
  readonly CallToolRequestSchema: typeof TypesModule.CallToolRequestSchema;
  readonly SetLevelRequestSchema: typeof TypesModule.SetLevelRequestSchema;
  readonly ListResourcesRequestSchema: typeof TypesModule.ListResourcesRequestSchema;
  readonly ListResourceTemplatesRequestSchema: typeof TypesModule.ListResourceTemplatesRequestSchema;
  readonly ReadResourceRequestSchema: typeof TypesModule.ReadResourceRequestSchema;
  readonly SubscribeRequestSchema: typeof TypesModule.SubscribeRequestSchema;
  readonly UnsubscribeRequestSchema: typeof TypesModule.UnsubscribeRequestSchema;
  readonly ListPromptsRequestSchema: typeof TypesModule.ListPromptsRequestSchema;
  readonly GetPromptRequestSchema: typeof TypesModule.GetPromptRequestSchema;
  readonly CompleteRequestSchema: typeof TypesModule.CompleteRequestSchema;
  readonly isInitializeRequest: typeof TypesModule.isInitializeRequest;
}

/** `load` run once, on first use; a load that failed (a broken install) is tried again next time. */
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (loading === undefined) {
      const started = load();
      loading = started;
      started.catch(() => {
        if (loading === started) loading = undefined;
      });
    }
    return loading;
  };
}

/**
 * Loads the MCP SDK's client side once, on first use. Importing `@weir/mcp` costs nothing until a
 * server is started: the SDK (with zod, ajv and its transports) is a few hundred modules, and a
 * CLI that lists its plugins should not pay for them at start.
 */
export const loadClientSdk: () => Promise<ClientSdk> = loadOnce(async () => {
  const [client, sse, streamableHttp, framing, types, auth, authExtensions] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    // Already a dependency of the Streamable HTTP transport: no more modules are loaded for it.
    import('@modelcontextprotocol/sdk/client/auth.js'),
    // One small module with no imports of its own (it loads `jose` only when an assertion is signed).
    import('@modelcontextprotocol/sdk/client/auth-extensions.js'),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    StreamableHTTPError: streamableHttp.StreamableHTTPError,
    deserializeMessage: framing.deserializeMessage,
    serializeMessage: framing.serializeMessage,
    McpError: types.McpError,
    ResultSchema: types.ResultSchema,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema: types.ResourceUpdatedNotificationSchema,
    ElicitRequestSchema: types.ElicitRequestSchema,
    CreateMessageRequestSchema: types.CreateMessageRequestSchema,
    ListRootsRequestSchema: types.ListRootsRequestSchema,
    auth: auth.auth,
    extractWWWAuthenticateParams: auth.extractWWWAuthenticateParams,
    createPrivateKeyJwtAuth: authExtensions.createPrivateKeyJwtAuth,
  };
});

/** Loads the MCP SDK's server side once, when a harness is first served (see `loadClientSdk`). */
export const loadServerSdk: () => Promise<ServerSdk> = loadOnce(async () => {
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
    ListResourcesRequestSchema: types.ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema: types.ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema: types.ReadResourceRequestSchema,
    SubscribeRequestSchema: types.SubscribeRequestSchema,
    UnsubscribeRequestSchema: types.UnsubscribeRequestSchema,
    ListPromptsRequestSchema: types.ListPromptsRequestSchema,
    GetPromptRequestSchema: types.GetPromptRequestSchema,
    CompleteRequestSchema: types.CompleteRequestSchema,
    isInitializeRequest: types.isInitializeRequest,
  };
});
