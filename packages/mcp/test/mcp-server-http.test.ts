import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHarness, isHarnessError } from '@weir/core';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServer, McpServerError } from '../src/index.js';

// A server of the 2024-11-05 protocol: HTTP+SSE only (GET opens the stream, POSTs go to the
// endpoint it names). Streamable HTTP POSTs to the same URL fail, and mcpServer falls back.
function legacySseServer(): Promise<{ url: URL; close: () => Promise<void> }> {
  const transports = new Map<string, SSEServerTransport>();
  const http: HttpServer = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      const server = new Server({ name: 'legacy', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'hello', description: 'Says hello.', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } }] }));
      server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: `hello, ${String(request.params.arguments?.who)}` }] }));
      await server.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (transport !== undefined) return transport.handlePostMessage(req, res);
    }
    res.writeHead(405).end('Method Not Allowed');
  });
  return new Promise((resolve) => {
    http.listen(0, '127.0.0.1', () => {
      const { port } = http.address() as AddressInfo;
      resolve({
        url: new URL(`http://127.0.0.1:${port}/sse`),
        close: () =>
          new Promise((done) => {
            http.close(() => done());
            http.closeAllConnections();
          }),
      });
    });
  });
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

describe('mcpServer({ url })', () => {
  it('falls back to HTTP+SSE for a server that predates Streamable HTTP (on 127.0.0.1)', async () => {
    const legacy = await legacySseServer();
    stops.push(legacy.close);
    expect(legacy.url.hostname).toBe('127.0.0.1');
    const harness = createHarness();
    stops.push(() => harness.close());
    await harness.use(mcpServer({ name: 'legacy', url: legacy.url, tiers: { hello: 'read-only' } }));
    expect(harness.tools.names()).toEqual(['legacy__hello']);
    expect(await harness.executeToolCall({ id: '1', name: 'legacy__hello', arguments: { who: 'sse' } })).toMatchObject({ ok: true, content: 'hello, sse' });
  });

  it('a URL nobody answers fails use() naming the server and both transports', async () => {
    const legacy = await legacySseServer();
    const url = legacy.url;
    await legacy.close();
    const harness = createHarness();
    stops.push(() => harness.close());
    const error = await harness.use(mcpServer({ name: 'gone', url, startTimeoutMs: 2_000 })).catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'PLUGIN_SETUP_FAILED')).toBe(true);
    const cause = (error as Error).cause as McpServerError;
    expect(cause).toBeInstanceOf(McpServerError);
    expect(cause.message).toMatch(/"gone".*Streamable HTTP failed.*HTTP\+SSE/s);
    expect(harness.tools.names()).toEqual([]);
  });
});
