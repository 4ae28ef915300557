import { chmod, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { NetworkAllow } from './network-allow.js';
import { decideConnection, type NetworkDecision } from './network-decision.js';

/** Stream buffers of the relayed sockets: fewer pauses (and wake-ups) per megabyte than the 16 KiB default. */
const STREAM_BUFFER = 1024 * 1024;

/** Headers a proxy must not pass on (hop-by-hop, and the client's proxy credentials). */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade']);

/**
 * The host side of the sandbox's network: an HTTP proxy listening on a Unix socket (bound into
 * the sandbox; the sandbox's forwarder relays to it). It serves `CONNECT host:port` (tunnels, so
 * HTTPS stays end to end) and plain HTTP requests in absolute form, each only when
 * `decideConnection` allows it, and connects to the address it resolved itself. A refusal is a
 * `403` whose body names the host and why. Every decision is reported to `onDecision`.
 */
export class FilteringProxy {
  readonly socketPath: string;
  readonly #server: Server;
  readonly #allow: NetworkAllow;
  readonly #onDecision: (decision: NetworkDecision) => void;
  readonly #sockets = new Set<Duplex>();

  private constructor(socketPath: string, allow: NetworkAllow, onDecision: (decision: NetworkDecision) => void) {
    this.socketPath = socketPath;
    this.#allow = allow;
    this.#onDecision = onDecision;
    this.#server = createServer({ requireHostHeader: false, highWaterMark: STREAM_BUFFER });
    this.#server.on('connection', (socket: Socket) => this.#track(socket));
    this.#server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.#forward(req, res));
    this.#server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.#tunnel(req, socket, head));
    this.#server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  }

  /** Listens on `socketPath` (made connectable by the sandbox user). Rejects when it cannot listen. */
  static async listen(socketPath: string, allow: NetworkAllow, onDecision: (decision: NetworkDecision) => void): Promise<FilteringProxy> {
    const proxy = new FilteringProxy(socketPath, allow, onDecision);
    await new Promise<void>((resolve, reject) => {
      proxy.#server.once('error', reject);
      proxy.#server.listen(socketPath, () => {
        proxy.#server.off('error', reject);
        resolve();
      });
    });
    // The sandbox user connects; the directory holding the socket is what keeps others out.
    await chmod(socketPath, 0o777);
    return proxy;
  }

  /** Stops listening, cuts every connection still open, and removes the socket. Never throws. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
    await rm(this.socketPath, { force: true });
  }

  #track(socket: Duplex): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  async #decide(host: string, port: number): Promise<NetworkDecision> {
    const decision = await decideConnection(host, port, this.#allow);
    this.#onDecision(decision);
    return decision;
  }

  async #tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    if (target === undefined) return refuseRaw(client, 400, `weir sandbox: CONNECT needs host:port, got ${JSON.stringify(req.url)}`);
    const decision = await this.#decide(target.host, target.port);
    if (!decision.allowed) return refuseRaw(client, 403, refusalText(decision));
    // The socket's stream options reach its Duplex constructor; @types/node does not list them.
    const options: NetConnectOpts = { host: decision.address, port: decision.port, noDelay: true };
    const upstream = connect(Object.assign(options, { readableHighWaterMark: STREAM_BUFFER, writableHighWaterMark: STREAM_BUFFER }));
    this.#track(upstream);
    // `upstream.connecting` is already false when a failed connect's error is emitted: keep our own flag.
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', (error) => {
      if (!connected) refuseRaw(client, 502, `weir sandbox: ${decision.host}:${decision.port} is allowed but could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`);
      else client.destroy();
    });
    client.once('close', () => upstream.destroy());
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return answer(res, 400, 'weir sandbox: the proxy takes absolute http:// URLs (and CONNECT for https)');
    }
    if (url.protocol !== 'http:') return answer(res, 400, `weir sandbox: the proxy forwards http:// only (use CONNECT for ${url.protocol})`);
    const decision = await this.#decide(url.hostname, url.port === '' ? 80 : Number(url.port));
    if (!decision.allowed) return answer(res, 403, refusalText(decision));
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
    headers.host = url.host;
    const upstream = httpRequest({ host: decision.address, port: decision.port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false, agent: false });
    upstream.on('socket', (socket) => this.#track(socket));
    upstream.once('response', (response) => {
      const back: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) back[name] = value;
      res.writeHead(response.statusCode ?? 502, response.statusMessage, back);
      response.pipe(res);
    });
    upstream.once('error', (error) => {
      if (!res.headersSent) answer(res, 502, `weir sandbox: ${decision.host}:${decision.port} is allowed but could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`);
      else res.destroy();
    });
    res.once('close', () => upstream.destroy());
    req.pipe(upstream);
  }
}

/** The line a refused client reads: the host, the port and why, and what would allow it. */
export function refusalText(decision: Extract<NetworkDecision, { allowed: false }>): string {
  return `weir sandbox: network access to ${decision.host}:${decision.port} refused: ${decision.reason}`;
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(`${text}\n`);
}

function refuseRaw(client: Duplex, status: number, text: string): void {
  const body = Buffer.from(`${text}\n`);
  const reason = status === 403 ? 'Forbidden' : status === 400 ? 'Bad Request' : 'Bad Gateway';
  client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
}

/** `host:port` or `[v6]:port`, as CONNECT names its target; `undefined` when it is neither. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (match === null) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1]!, port } : undefined;
}
