import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHarness, definePlugin, defineTool, type Harness } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveHarness, type ServedHarness, type ServeHarnessOptions } from '../src/index.js';

const TOKEN = 'session-token-0123456789abcdef0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };
const tools = definePlugin({
  name: 'session-tools',
  setup(ctx) {
    ctx.tools.register(defineTool({ name: 'echo', description: 'Echoes.', tier: 'read-only', parameters: { type: 'object' }, execute: () => 'echo' }));
  },
});

let harness: Harness;
let served: ServedHarness | undefined;
const clients: Client[] = [];
beforeEach(async () => {
  harness = createHarness();
  await harness.use(tools);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await served?.close();
  served = undefined;
  await harness.close();
});

async function serve(http: NonNullable<ServeHarnessOptions['http']>): Promise<ServedHarness> {
  served = await serveHarness(harness, { name: 'sessions', http: { port: 0, token: TOKEN, ...http } });
  return served;
}

async function open(url: URL): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'session-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** The status a request of `sessionId` gets (a ping): 200 while the session lives, 404 once it ended. */
async function statusOf(url: URL, sessionId: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('serveHarness HTTP sessions', () => {
  it('more sessions than the cap: the oldest idle one is evicted, the new one served, never 503 for good', async () => {
    const { url } = await serve({ maxSessions: 2 });
    const first = await open(url!);
    const second = await open(url!);
    const firstId = first.transport.sessionId!;
    // A client's close() does not end its session on the server: only eviction or expiry does.
    await first.client.close();
    const third = await open(url!);
    expect(await third.client.callTool({ name: 'echo', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'echo' }] });
    expect(await statusOf(url!, firstId)).toBe(404);
    expect(await statusOf(url!, second.transport.sessionId!)).toBe(200);
    // Clients that come and go (close() sends no DELETE) never fill the server for good.
    await third.client.close();
    for (let i = 0; i < 4; i += 1) await (await open(url!)).client.close();
  });

  it('a session idle for sessionIdleMs (its client closed without DELETE) is ended: 404', async () => {
    const { url } = await serve({ sessionIdleMs: 300 });
    const idle = await open(url!);
    const idleId = idle.transport.sessionId!;
    expect(await statusOf(url!, idleId)).toBe(200);
    await idle.client.close();
    // Asking would renew it: look once, after the idle time and a sweep (every second at most) have passed.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await statusOf(url!, idleId)).toBe(404);
    const fresh = await open(url!);
    expect(await fresh.client.callTool({ name: 'echo', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'echo' }] });
  });

  it('DELETE ends the session', async () => {
    const { url } = await serve({});
    const { transport } = await open(url!);
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(await statusOf(url!, id)).toBe(404);
  });
});
