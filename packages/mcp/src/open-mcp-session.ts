import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { redactUrl } from '@weir/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientSdk } from './load-sdk.js';
import type { ResolvedServerOptions } from './mcp-server-options.js';
import { McpServerError } from './mcp-server-error.js';
import { StdioProcessTransport } from './stdio-process-transport.js';
import type { ResolvedOAuth } from './oauth/oauth-options.js';
import { ClientCredentialsProvider } from './oauth/client-credentials-provider.js';
import { LoginFetch, LoginPendingError } from './oauth/login-fetch.js';
import { TokenStore } from './oauth/token-store.js';
import { WeirOAuthProvider } from './oauth/weir-oauth-provider.js';

/** Which wire a session uses. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** One connected, initialised client. */
export interface McpSession {
  readonly client: Client;
  readonly kind: McpTransportKind;
  /** The server process (stdio only). */
  readonly pid: number | undefined;
  /** True once the connection is gone, whoever closed it. */
  readonly closed: boolean;
  /** The server's last stderr lines (stdio only), for error messages. */
  stderrTail(): string;
  /** Closes the client and ends the server process and its process group. Idempotent. */
  close(): Promise<void>;
}

export interface SessionHandlers {
  /** The server said its tool list changed. */
  readonly onToolsChanged: () => void;
  /** The connection went away without `close()` being called (the server died or hung up). */
  readonly onLost: () => void;
  readonly onError: (error: Error) => void;
  /** Answers the server's `elicitation/create` (form and URL modes); never throws. Declares the capability. */
  readonly onElicit: (params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** Answers `sampling/createMessage`; given only when a model is, and then the capability is declared. */
  readonly onSample: ((params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>) | undefined;
}

const CLIENT_INFO = { name: 'weir', version: '0.1.0' };

/**
 * Starts (stdio) or reaches (HTTP) a server and runs the `initialize` handshake under
 * `startTimeoutMs`. On any failure, everything started is ended before the error is thrown, and
 * the error names the server with its stderr tail.
 */
export async function openMcpSession(options: ResolvedServerOptions, sdk: ClientSdk, handlers: SessionHandlers): Promise<McpSession> {
  if (options.kind === 'stdio') {
    const transport = new StdioProcessTransport(
      { command: options.command, args: options.args, env: options.env, cwd: options.cwd },
      { deserializeMessage: sdk.deserializeMessage, serializeMessage: sdk.serializeMessage },
    );
    const describe = `the stdio server "${options.name}" (${[options.command, ...options.args].join(' ')})`;
    return connect(options, sdk, handlers, transport, 'stdio', describe, () => transport.stderr.text(), () => transport.pid, (error) => {
      const exit = transport.exit;
      if (exit !== undefined) return `it exited (${exit.signal ?? `code ${exit.code}`}) before answering initialize`;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return `command ${JSON.stringify(options.command)} was not found`;
      return undefined;
    });
  }
  const requestInit = { headers: { ...options.headers } };
  // The URL may hold a key (`?api_key=`) or a password (`user:pass@`): shown redacted, everywhere.
  const shown = redactUrl(options.url);
  const describe = `the HTTP server "${options.name}" (${shown})`;
  const scrub = (text: string) => text.split(options.url.href).join(shown);
  if (options.oauth !== undefined) return await connectWithLogin(options, options.oauth, sdk, handlers, requestInit, describe);
  try {
    const attempt = () => connect(options, sdk, handlers, new sdk.StreamableHTTPClientTransport(options.url, { requestInit }), 'streamable-http', describe, noStderr, noPid);
    try {
      return await attempt();
    } catch (error) {
      // A kept-alive socket that a restarted server closed fails the first request; initialize is safe to send again.
      if (!closedSocket(error)) throw error;
      return await attempt();
    }
  } catch (streamableError) {
    if ((streamableError as McpServerError).code === 'MCP_START_TIMEOUT') throw streamableError;
    // Servers written before Streamable HTTP (protocol 2024-11-05) speak HTTP+SSE at the same URL.
    try {
      const transport = new sdk.SSEClientTransport(options.url, { requestInit });
      return await connect(options, sdk, handlers, transport, 'sse', describe, noStderr, noPid);
    } catch (sseError) {
      throw new McpServerError(
        'MCP_START_FAILED',
        options.name,
        `Could not reach ${describe}: Streamable HTTP failed (${scrub(message(streamableError))}), and so did the older HTTP+SSE transport (${scrub(message(sseError))}).`,
        '',
        { cause: new AggregateError([streamableError, sseError]) },
      );
    }
  }
}

/**
 * Streamable HTTP with an OAuth login (no HTTP+SSE fallback: a server that asks for OAuth speaks
 * the newer transport). The transport's `fetch` is a `LoginFetch`: on a 401 (or a 403 asking for
 * more scope), on any request of the session, it refreshes or logs in and sends the request again.
 * While connecting, a login that needs the person fails the connect at once; the login is then
 * awaited here, outside the connect's timeout, and the connect made again.
 */
async function connectWithLogin(
  options: ResolvedServerOptions & { readonly kind: 'http' },
  oauth: ResolvedOAuth,
  sdk: ClientSdk,
  handlers: SessionHandlers,
  requestInit: RequestInit,
  describe: string,
): Promise<McpSession> {
  const store = new TokenStore(oauth.tokenFile);
  const provider = oauth.grant === 'client_credentials' ? new ClientCredentialsProvider(store, oauth, sdk) : new WeirOAuthProvider(store, oauth);
  const login = new LoginFetch({ name: options.name, describe, url: options.url }, provider, oauth, sdk, () => portOf(store.read().redirectUri));
  const open = () => new sdk.StreamableHTTPClientTransport(options.url, { requestInit, fetch: login.fetch });
  try {
    let session: McpSession;
    try {
      session = await connect(options, sdk, handlers, open(), 'streamable-http', describe, noStderr, noPid);
    } catch (error) {
      const failedLogin = causeOf(error, (cause) => cause instanceof McpServerError && cause.code === 'MCP_AUTH_FAILED');
      if (failedLogin !== undefined) throw failedLogin;
      const pending = causeOf(error, (cause) => cause instanceof LoginPendingError);
      if (!(pending instanceof LoginPendingError)) throw error;
      try {
        await pending.login;
      } catch (loginError) {
        throw new McpServerError('MCP_AUTH_FAILED', options.name, `Could not log in to ${describe}: ${message(loginError)}.`, '', { cause: loginError });
      }
      session = await connect(options, sdk, handlers, open(), 'streamable-http', describe, noStderr, noPid);
    }
    login.waitForLogins = true;
    const opened = session;
    return {
      client: opened.client,
      kind: opened.kind,
      get pid() {
        return opened.pid;
      },
      get closed() {
        return opened.closed;
      },
      stderrTail: opened.stderrTail,
      // A login under way (a step-up during a call) ends with the session, and its listener with it.
      close: async () => {
        await login.close();
        await opened.close();
      },
    };
  } catch (error) {
    await login.close();
    throw error;
  }
}

/** The first error in `error`'s cause chain (itself included) that `test` accepts. */
function causeOf(error: unknown, test: (cause: unknown) => boolean): unknown {
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 4; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    if (test(cause)) return cause;
  }
  return undefined;
}

function portOf(uri: string | undefined): number | undefined {
  if (uri === undefined) return undefined;
  try {
    return Number(new URL(uri).port) || undefined;
  } catch {
    return undefined;
  }
}

function closedSocket(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 4; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const code = (cause as { code?: unknown } | null)?.code;
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return true;
  }
  return false;
}

const noStderr = () => '';
const noPid = () => undefined;

async function connect(
  options: ResolvedServerOptions,
  sdk: ClientSdk,
  handlers: SessionHandlers,
  transport: Transport,
  kind: McpTransportKind,
  describe: string,
  stderrTail: () => string,
  pid: () => number | undefined,
  explain: (error: unknown) => string | undefined = () => undefined,
): Promise<McpSession> {
  const { roots } = options;
  const { onSample } = handlers;
  const capabilities = {
    // Both modes: with no one to answer, weir declines rather than leave the server waiting.
    elicitation: { form: {}, url: {} },
    ...(onSample === undefined ? {} : { sampling: {} }),
    ...(roots === undefined ? {} : { roots: { listChanged: true } }),
  };
  const client = new sdk.Client(CLIENT_INFO, { capabilities });
  client.setRequestHandler(sdk.ElicitRequestSchema, (request, extra) => handlers.onElicit(request.params as Record<string, unknown>, extra.signal) as never);
  if (onSample !== undefined) client.setRequestHandler(sdk.CreateMessageRequestSchema, (request, extra) => onSample(request.params as Record<string, unknown>, extra.signal) as never);
  let closed = false;
  let closing: Promise<void> | undefined;
  let stopAnnouncing = () => {};
  if (roots !== undefined) {
    client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots: roots.list().map((root) => ({ ...root })) }));
    // A change is announced to a connected server; one still starting asks roots/list when it needs them.
    stopAnnouncing = roots.onChange(() => {
      if (!closed) client.sendRootsListChanged().catch((error: unknown) => handlers.onError(error instanceof Error ? error : new Error(String(error))));
    });
  }
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => handlers.onToolsChanged());
  client.onerror = (error) => handlers.onError(error);
  client.onclose = () => {
    const wasOpen = !closed;
    closed = true;
    stopAnnouncing();
    if (wasOpen && closing === undefined) handlers.onLost();
  };
  const close = () => {
    closing ??= (async () => {
      closed = true;
      stopAnnouncing();
      try {
        await client.close();
      } finally {
        // The client may not have reached the transport (a failed start): end it directly too.
        await transport.close();
      }
    })();
    return closing;
  };

  try {
    await client.connect(transport, { timeout: options.startTimeoutMs });
  } catch (error) {
    await close().catch(() => undefined);
    const timedOut = isTimeout(error, sdk);
    const reason = timedOut ? `it did not answer initialize within ${options.startTimeoutMs} ms` : (explain(error) ?? message(error));
    throw new McpServerError(timedOut ? 'MCP_START_TIMEOUT' : 'MCP_START_FAILED', options.name, `Could not start ${describe}: ${reason}.`, stderrTail(), { cause: error });
  }
  return {
    client,
    kind,
    get pid() {
      return pid();
    },
    get closed() {
      return closed;
    },
    stderrTail,
    close,
  };
}

function isTimeout(error: unknown, sdk: ClientSdk): boolean {
  // -32001 is the SDK's RequestTimeout.
  return error instanceof sdk.McpError && error.code === -32001;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
