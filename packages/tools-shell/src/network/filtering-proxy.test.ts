import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilteringProxy } from './filtering-proxy.js';
import { resolveNetworkAllow } from './network-allow.js';
import type { NetworkDecision } from './network-decision.js';

// The proxy alone, over its Unix socket: the answers a client gets for what it should not ask.

let dir: string;
let proxy: FilteringProxy;
let upstream: Server;
let port: number;
let closedPort: number;
const decisions: NetworkDecision[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-proxy-test-'));
  upstream = createServer((req, res) => res.end(`${req.method} ${req.url} host=${req.headers.host} proxy=${req.headers['proxy-authorization'] ?? '-'}\n`));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  port = (upstream.address() as AddressInfo).port;
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  closedPort = (spare.address() as AddressInfo).port;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
  const allow = resolveNetworkAllow({ allow: ['up.test', 'gone.test'], ports: [port, closedPort], allowAddresses: ['127.0.0.1'], lookup: async () => ['127.0.0.1'] });
  proxy = await FilteringProxy.listen(join(dir, 'proxy.sock'), allow, (decision) => decisions.push(decision));
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function ask(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socketPath, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject).end();
  });
}

function rawConnect(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath);
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
    socket.write(`${line}\r\n\r\n`);
  });
}

describe('FilteringProxy', () => {
  it('forwards plain HTTP with the URL\'s host, and without the client\'s proxy credentials', async () => {
    const answer = await ask(`http://UP.test:${port}/x?y=1`, { 'proxy-authorization': 'Basic c2VjcmV0' });
    expect(answer).toEqual({ status: 200, body: `GET /x?y=1 host=up.test:${port} proxy=-\n` });
  });

  it('answers 400 to a request that is not an absolute http:// URL, and to a CONNECT without a port', async () => {
    expect((await ask('/relative')).status).toBe(400);
    expect((await ask(`ftp://up.test:${port}/`)).body).toContain('the proxy forwards http:// only');
    expect(await rawConnect('CONNECT up.test HTTP/1.1')).toMatch(/^HTTP\/1\.1 400 Bad Request[\s\S]*CONNECT needs host:port/);
  });

  it('answers 502 naming the host when an allowed host cannot be reached', async () => {
    const answer = await ask(`http://gone.test:${closedPort}/`);
    expect(answer.status).toBe(502);
    expect(answer.body).toBe(`weir sandbox: gone.test:${closedPort} is allowed but could not be reached (ECONNREFUSED)\n`);
    expect(await rawConnect(`CONNECT gone.test:${closedPort} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 502 Bad Gateway[\s\S]*could not be reached \(ECONNREFUSED\)/);
  });

  it('refuses an IPv6 literal in a CONNECT as a raw IP, with a 403 naming it', async () => {
    const answer = await rawConnect(`CONNECT [::1]:${port} HTTP/1.1`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(answer).toContain(`network access to [::1]:${port} refused: raw IP addresses are never allowed`);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, host: '[::1]', port });
  });
});
