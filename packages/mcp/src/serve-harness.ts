import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Harness } from '@weir/core';
import { bearerMatches, generateToken, MIN_TOKEN_LENGTH, writeTokenFile } from './bearer-token.js';
import { checkLoopbackRequest } from './check-loopback-request.js';
import { createSessionServer, type SessionOffer, type SessionServer } from './create-session-server.js';
import { BoundedEventStore } from './bounded-event-store.js';
import { HttpSessionTable } from './http-session-table.js';
import { loadServerSdk, type ServerSdk } from './load-sdk.js';
import type { McpPromptSource } from './mcp-prompt-source.js';
import type { McpResourceSource } from './mcp-resource-source.js';
import { serveBridgePlugin } from './serve-bridge-plugin.js';

/** Hosts the HTTP transport may listen on: loopback only. */
export type LoopbackHost = '127.0.0.1' | '::1' | 'localhost';

export interface ServeHarnessOptions {
  /** The server name clients see; also names the bridge plugin (`mcp-serve:<name>`). */
  readonly name: string;
  readonly version?: string;
  /** Serve Streamable HTTP on loopback instead of stdio. */
  readonly http?: {
    /** Default 0: a free port, read it from `url`. */
    readonly port?: number;
    /** Default `127.0.0.1`. Only loopback hosts are accepted. */
    readonly host?: LoopbackHost;
    /** Default `/mcp`. */
    readonly path?: string;
    /** Browser origins allowed besides the loopback ones (for a local web client). */
    readonly allowedOrigins?: readonly string[];
    /**
     * The bearer token every request must send (`Authorization: Bearer <token>`), at least 32
     * characters. Default: a fresh one, written to `tokenFile` or else printed once to stderr.
     */
    readonly token?: string;
    /** Where the generated token is written for the client: created with mode 0600, and it must not exist yet. */
    readonly tokenFile?: string;
    /**
     * `'none'` serves without a token: any local user can then call the tools with this process's
     * rights (loopback is not authentication). Only for a client that cannot send a header.
     */
    readonly auth?: 'bearer' | 'none';
    /** Sessions kept at once (default 64); a new one takes the place of the oldest idle one. */
    readonly maxSessions?: number;
    /** A session with no request for this long is ended (default 30 minutes); its client starts a new one. */
    readonly sessionIdleMs?: number;
    /**
     * How long a client whose stream was cut waits before it reconnects with `Last-Event-ID`
     * (the SSE `retry` field of each stream's priming event). Default 1000 ms.
     */
    readonly retryMs?: number;
  };
  /**
   * Who may answer a call's approval. `'client'` (default): the client that made the call, through
   * elicitation, which shows it to its user. `'deny'`: nobody here; a call that needs approval is
   * denied unless another plugin (a terminal prompt, a policy) answers approvals.
   */
  readonly approvals?: 'client' | 'deny';
  /**
   * Resources to offer (list, read, templates, subscriptions, completion of template arguments):
   * `await workspaceResources({ root })` for the workspace's files. Default: none, and the
   * capability is not declared.
   */
  readonly resources?: McpResourceSource;
  /** How often a subscribed resource is checked for a change (default 1000 ms). */
  readonly resourcePollMs?: number;
  /**
   * Prompts to offer (list, get, completion of arguments): `await commandPrompts({ commands, skills })`
   * for the harness's slash commands and skills. Default: none, and the capability is not declared.
   */
  readonly prompts?: McpPromptSource;
  /** The streams of the stdio transport. Default: this process's stdin and stdout. */
  readonly stdio?: { readonly stdin: Readable; readonly stdout: Writable };
}

export interface ServedHarness {
  /** The endpoint of the HTTP transport; `undefined` for stdio. */
  readonly url: URL | undefined;
  /** The bearer token HTTP clients must send; `undefined` for stdio and for `auth: 'none'`. */
  readonly token: string | undefined;
  /** Stops serving: closes every session (and the listener), then unloads the bridge plugin. */
  close(): Promise<void>;
}

/** Sessions one HTTP server keeps at once by default; a new one evicts the oldest idle one, and only when none is idle is it refused (503). */
export const MAX_HTTP_SESSIONS = 64;

/** How long an HTTP session may go without a request before it is ended, by default. */
export const SESSION_IDLE_MS = 30 * 60_000;

/** The reconnection delay HTTP clients are told (SSE `retry`), by default. */
export const RETRY_MS = 1_000;

/**
 * Offers a harness's tools as an MCP server, over stdio (default) or Streamable HTTP on loopback.
 * Every call goes through the harness pipeline: guards, approval, deadlines, post-execute. Error
 * results are `isError` results; image and resource parts are MCP content blocks. A call that needs
 * approval asks the client through elicitation when the client offers it and no other plugin
 * answers approvals; otherwise it is denied. The HTTP transport refuses foreign `Host` and
 * `Origin` headers (DNS rebinding). Throws a `TypeError` on bad options.
 */
export async function serveHarness(harness: Harness, options: ServeHarnessOptions): Promise<ServedHarness> {
  if (typeof options?.name !== 'string' || options.name.trim() === '') throw new TypeError('serveHarness: a name is required.');
  const host = options.http?.host ?? '127.0.0.1';
  if (options.http !== undefined && !['127.0.0.1', '::1', 'localhost'].includes(host)) {
    throw new TypeError(`serveHarness: the HTTP transport listens on loopback only (127.0.0.1, ::1 or localhost), not ${JSON.stringify(host)}.`);
  }
  const port = options.http?.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new TypeError(`serveHarness: port must be an integer from 0 to 65535, got ${String(port)}.`);
  const approvals = options.approvals ?? 'client';
  if (approvals !== 'client' && approvals !== 'deny') throw new TypeError(`serveHarness: approvals must be "client" or "deny", got ${JSON.stringify(approvals)}.`);
  const auth = checkHttpOptions(options.http);
  const sdk = await loadServerSdk();
  const info = { name: options.name, version: options.version ?? '0.0.0' };
  // The terminal prompt's escaping, the same function (loaded here, not when @weir/mcp is imported).
  const { escapeForTerminal } = await import('@weir/safety');
  const offer = checkOffer(options);
  const unloadBridge = await harness.use(serveBridgePlugin(options.name, approvals, escapeForTerminal));
  try {
    if (options.http === undefined) return await serveStdio(harness, sdk, info, offer, options.stdio, unloadBridge);
    const token = auth === 'none' ? undefined : (options.http.token ?? generateToken());
    const limits = { maxSessions: options.http.maxSessions ?? MAX_HTTP_SESSIONS, sessionIdleMs: options.http.sessionIdleMs ?? SESSION_IDLE_MS, retryMs: options.http.retryMs ?? RETRY_MS };
    const served = await serveHttp(harness, sdk, info, offer, { host, port, path: options.http.path ?? '/mcp', allowedOrigins: options.http.allowedOrigins ?? [], token, ...limits }, unloadBridge);
    try {
      await handOver(options.name, served.url!, options.http, token);
    } catch (error) {
      await served.close();
      throw error;
    }
    return served;
  } catch (error) {
    await unloadBridge();
    throw error;
  }
}

async function serveStdio(
  harness: Harness,
  sdk: ServerSdk,
  info: { name: string; version: string },
  offer: SessionOffer,
  streams: ServeHarnessOptions['stdio'],
  unloadBridge: () => Promise<void>,
): Promise<ServedHarness> {
  const session = createSessionServer(harness, sdk, info, offer);
  const transport = new sdk.StdioServerTransport(streams?.stdin, streams?.stdout);
  await session.server.connect(transport);
  let closing: Promise<void> | undefined;
  return {
    url: undefined,
    token: undefined,
    close: () => {
      closing ??= (async () => {
        session.stop();
        await session.server.close();
        await unloadBridge();
      })();
      return closing;
    },
  };
}

interface HttpSession {
  readonly session: SessionServer;
  readonly transport: InstanceType<ServerSdk['StreamableHTTPServerTransport']>;
}

async function serveHttp(
  harness: Harness,
  sdk: ServerSdk,
  info: { name: string; version: string },
  offer: SessionOffer,
  config: { host: LoopbackHost; port: number; path: string; allowedOrigins: readonly string[]; token: string | undefined; maxSessions: number; sessionIdleMs: number; retryMs: number },
  unloadBridge: () => Promise<void>,
): Promise<ServedHarness> {
  let boundPort = 0;

  const closeSession = async (entry: HttpSession) => {
    entry.session.stop();
    await entry.session.server.close().catch(() => undefined);
  };
  const sessions = new HttpSessionTable<HttpSession>(config.maxSessions, config.sessionIdleMs, (entry) => void closeSession(entry));
  // Idle sessions are looked for a few times per idle period (at most once a second, at least once a minute).
  const sweeper = setInterval(() => sessions.sweep(), Math.min(60_000, Math.max(1_000, config.sessionIdleMs / 4)));
  sweeper.unref();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = checkLoopbackRequest({ host: req.headers.host, origin: req.headers.origin }, boundPort, config.allowedOrigins);
    if (refusal !== undefined) return reply(res, refusal.status, refusal.message);
    if (config.token !== undefined && !bearerMatches(req.headers.authorization, config.token)) {
      res.setHeader('www-authenticate', 'Bearer realm="weir"');
      return reply(res, 401, 'Unauthorized: send the token serveHarness gave as "Authorization: Bearer <token>".');
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== config.path) return reply(res, 404, `Not found: the MCP endpoint is ${config.path}.`);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = sessions.get(sessionId);
      if (entry === undefined) return reply(res, 404, 'Session not found (it ended, or expired after being idle): initialize a new session.');
      // Open until the response ends: a session with a call under way is never ended for room or idleness.
      res.once('close', sessions.begin(sessionId, req.method === 'GET' ? 'stream' : 'call'));
      return entry.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'No session: start one with an initialize POST.');
    if (!sessions.makeRoom()) return reply(res, 503, `This server holds ${sessions.max} sessions, each with a call under way; try again later.`);
    const session = createSessionServer(harness, sdk, info, offer);
    let entry: HttpSession | undefined;
    const transport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams: each SSE stream starts with a priming event (an id and `retry`), and a
      // client whose stream was cut reconnects with Last-Event-ID and gets what it missed.
      eventStore: new BoundedEventStore(),
      retryInterval: config.retryMs,
      onsessioninitialized: (id) => {
        if (entry !== undefined) sessions.add(id, entry);
      },
    });
    entry = { session, transport };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      session.stop();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res);
    // A first request that was not an initialize created no session: nothing to keep.
    if (transport.sessionId === undefined) await closeSession(entry);
  };

  const listener = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      harness.logger.error({ err: error }, 'serveHarness: a request failed');
      if (!res.headersSent) reply(res, 500, 'Internal error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(config.port, config.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  boundPort = (listener.address() as AddressInfo).port;
  const urlHost = config.host === '::1' ? '[::1]' : config.host;
  const url = new URL(`http://${urlHost}:${boundPort}${config.path}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    token: config.token,
    close: () => {
      closing ??= (async () => {
        clearInterval(sweeper);
        await Promise.all(sessions.drain().map(closeSession));
        await new Promise<void>((resolve) => {
          listener.close(() => resolve());
          listener.closeAllConnections();
        });
        await unloadBridge();
      })();
      return closing;
    },
  };
}

function checkOffer(options: ServeHarnessOptions): SessionOffer {
  const { resources, prompts, resourcePollMs = 1_000 } = options;
  if (resources !== undefined && (typeof resources?.read !== 'function' || typeof resources.list !== 'function' || typeof resources.version !== 'function' || !Array.isArray(resources.templates))) {
    throw new TypeError('serveHarness: resources must be a resource source (await workspaceResources({ root }), or an object with list, templates, read and version).');
  }
  if (prompts !== undefined && (typeof prompts?.list !== 'function' || typeof prompts.get !== 'function')) {
    throw new TypeError('serveHarness: prompts must be a prompt source (await commandPrompts({ commands, skills }), or an object with list and get).');
  }
  if (!(Number.isInteger(resourcePollMs) && resourcePollMs >= 10)) throw new TypeError(`serveHarness: resourcePollMs must be a whole number of milliseconds, at least 10, got ${String(resourcePollMs)}.`);
  return { resources, prompts, pollMs: resourcePollMs };
}

function checkHttpOptions(http: ServeHarnessOptions['http']): 'bearer' | 'none' {
  if (http === undefined) return 'none';
  const auth = http.auth ?? 'bearer';
  if (auth !== 'bearer' && auth !== 'none') throw new TypeError(`serveHarness: http.auth must be "bearer" or "none", got ${JSON.stringify(auth)}.`);
  if (auth === 'none' && (http.token !== undefined || http.tokenFile !== undefined)) throw new TypeError('serveHarness: http.auth "none" takes no token and no tokenFile.');
  if (http.token !== undefined && (typeof http.token !== 'string' || http.token.length < MIN_TOKEN_LENGTH || /\s/.test(http.token))) {
    throw new TypeError(`serveHarness: http.token must be a string of at least ${MIN_TOKEN_LENGTH} characters without spaces.`);
  }
  if (http.tokenFile !== undefined && (typeof http.tokenFile !== 'string' || http.tokenFile === '')) throw new TypeError('serveHarness: http.tokenFile must be a path.');
  if (http.maxSessions !== undefined && !(Number.isInteger(http.maxSessions) && http.maxSessions >= 1)) throw new TypeError(`serveHarness: http.maxSessions must be a positive integer, got ${String(http.maxSessions)}.`);
  if (http.sessionIdleMs !== undefined && !(typeof http.sessionIdleMs === 'number' && http.sessionIdleMs > 0)) throw new TypeError(`serveHarness: http.sessionIdleMs must be a positive number of milliseconds, got ${String(http.sessionIdleMs)}.`);
  if (http.retryMs !== undefined && !(Number.isInteger(http.retryMs) && http.retryMs >= 0)) throw new TypeError(`serveHarness: http.retryMs must be a whole number of milliseconds, got ${String(http.retryMs)}.`);
  return auth;
}

/**
 * Gives a generated token to the person who starts the client: written to `tokenFile` (0600), or
 * printed once to stderr. A token the caller chose is theirs to pass on: nothing is printed.
 */
async function handOver(name: string, url: URL, http: NonNullable<ServeHarnessOptions['http']>, token: string | undefined): Promise<void> {
  if (token === undefined || http.token !== undefined) return;
  if (http.tokenFile !== undefined) return writeTokenFile(http.tokenFile, token);
  process.stderr.write(`serveHarness "${name}" at ${url.href}: clients must send the header "Authorization: Bearer ${token}" (shown once).\n`);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
