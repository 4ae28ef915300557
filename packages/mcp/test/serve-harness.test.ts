import { createHarness, defineTool, definePlugin, type Harness } from '@weir/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer, serveHarness, type ServedHarness } from '../src/index.js';
import { fixture, NODE } from './servers.js';

/** The token every HTTP test server takes (a chosen token is not printed). */
const TOKEN = 'test-token-0123456789abcdef0123456789';
const auth = { headers: { authorization: `Bearer ${TOKEN}` } };

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const tools = definePlugin({
  name: 'test-tools',
  setup(ctx) {
    ctx.tools.register(defineTool({ name: 'echo', description: 'Echoes text.', tier: 'read-only', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => `echo: ${text}` }));
    ctx.tools.register(defineTool({ name: 'broken', description: 'Always fails.', tier: 'read-only', parameters: { type: 'object' }, execute: () => { throw new Error('the disk is full'); } }));
    ctx.tools.register(defineTool({ name: 'picture', description: 'A tiny image.', tier: 'read-only', parameters: { type: 'object' }, execute: () => [{ type: 'text', text: 'a dot:' }, { type: 'image', data: PNG, mediaType: 'image/png' }] }));
    // A tool of the core's shape: its value is data, its renderer gives the model text and an image.
    ctx.tools.register(defineTool({ name: 'chart', description: 'Renders a chart.', tier: 'read-only', parameters: { type: 'object' }, output: { render: (value: { title: string }) => [{ type: 'text', text: value.title }, { type: 'image', data: PNG, mediaType: 'image/png' }, { type: 'resource', uri: 'file:///data.csv', name: 'data.csv' }] }, execute: () => ({ title: 'sales' }) }));
    ctx.tools.register(defineTool({ name: 'weather', description: 'Structured.', tier: 'read-only', parameters: { type: 'object' }, output: { schema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } }, execute: () => ({ celsius: 21 }) }));
    ctx.tools.register(defineTool({ name: 'erase', description: 'Needs approval.', tier: 'dangerous', parameters: { type: 'object' }, execute: () => 'erased' }));
    ctx.tools.register(defineTool({
      name: 'chatty',
      description: 'Logs and reports progress.',
      tier: 'read-only',
      parameters: { type: 'object' },
      execute: async (_args, exec) => {
        const progress = (exec as { progress?: (update: object) => void }).progress;
        exec.logger.info('started');
        progress?.({ progress: 1, total: 2 });
        progress?.({ progress: 2, total: 2, message: 'done' });
        exec.logger.debug('a detail');
        return 'chatted';
      },
    }));
    ctx.guards.add((call) => (call.tier === 'dangerous' ? { decision: 'ask', reason: 'it erases things' } : undefined));
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

async function connect(capabilities: object = {}, onElicit?: () => { action: 'accept' | 'decline' | 'cancel' }): Promise<Client> {
  served ??= await serveHarness(harness, { name: 'weir-test', http: { port: 0, token: TOKEN } });
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, async () => onElicit());
  await client.connect(new StreamableHTTPClientTransport(served.url!, { requestInit: auth }));
  clients.push(client);
  return client;
}

describe('serveHarness over Streamable HTTP, driven by the SDK client', () => {
  it('listens on 127.0.0.1 with a port of its own', async () => {
    await connect();
    expect(served!.url!.hostname).toBe('127.0.0.1');
    expect(Number(served!.url!.port)).toBeGreaterThan(0);
  });

  it('lists the harness tools with their schemas and the tier as hints', async () => {
    const client = await connect();
    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.name).sort()).toEqual(['broken', 'chart', 'chatty', 'echo', 'erase', 'picture', 'weather']);
    expect(listed.find((tool) => tool.name === 'echo')).toMatchObject({ inputSchema: { type: 'object', required: ['text'] }, annotations: { readOnlyHint: true } });
    expect(listed.find((tool) => tool.name === 'erase')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(listed.find((tool) => tool.name === 'weather')!.outputSchema).toMatchObject({ type: 'object' });
  });

  it('runs a call through the pipeline; an error result is isError; an invalid argument too', async () => {
    const client = await connect();
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] });
    const failed = await client.callTool({ name: 'broken', arguments: {} });
    expect(failed.isError).toBe(true);
    expect((failed.content as { text: string }[])[0]!.text).toMatch(/EXECUTION_FAILED.*the disk is full/);
    const invalid = await client.callTool({ name: 'echo', arguments: { text: 3 } });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as { text: string }[])[0]!.text).toMatch(/INVALID_ARGUMENTS/);
  });

  it('an unknown tool is a protocol error', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
  });

  it('images become image content; a structured value becomes structuredContent', async () => {
    const client = await connect();
    const picture = await client.callTool({ name: 'picture', arguments: {} });
    expect(picture.content).toEqual([{ type: 'text', text: 'a dot:' }, { type: 'image', data: PNG, mimeType: 'image/png' }]);
    const weather = await client.callTool({ name: 'weather', arguments: {} });
    expect(weather.structuredContent).toEqual({ celsius: 21 });
  });

  it("a renderer's content parts become MCP content: text, image, and a resource link", async () => {
    const client = await connect();
    const chart = await client.callTool({ name: 'chart', arguments: {} });
    expect(chart.content).toEqual([
      { type: 'text', text: 'sales' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///data.csv', name: 'data.csv' },
    ]);
  });

  it('a call that needs approval asks the client through elicitation: accept runs it', async () => {
    let asked = 0;
    const client = await connect({ elicitation: {} }, () => {
      asked += 1;
      return { action: 'accept' };
    });
    expect(await client.callTool({ name: 'erase', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'erased' }] });
    expect(asked).toBe(1);
  });

  it('decline denies it', async () => {
    const client = await connect({ elicitation: {} }, () => ({ action: 'decline' }));
    const denied = await client.callTool({ name: 'erase', arguments: {} });
    expect(denied.isError).toBe(true);
    expect((denied.content as { text: string }[])[0]!.text).toMatch(/DENIED.*declined/);
  });

  it('a client without elicitation is denied', async () => {
    const client = await connect();
    const denied = await client.callTool({ name: 'erase', arguments: {} });
    expect(denied.isError).toBe(true);
    expect((denied.content as { text: string }[])[0]!.text).toMatch(/DENIED.*offers no elicitation/);
  });

  it('progress and log lines of the tool reach the client; the level it set filters them', async () => {
    const client = await connect();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    await client.setLoggingLevel('info');
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'chatty', arguments: {} }, undefined, { onprogress: (update) => progress.push(update) });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'chatted' }] });
    expect(progress).toEqual([{ progress: 1, total: 2 }, { progress: 2, total: 2, message: 'done' }]);
    expect(logs).toEqual(['started']);
  });

  it('a tool registered later is listed after list_changed', async () => {
    const client = await connect();
    let changed = false;
    client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ToolListChangedNotificationSchema, () => {
      changed = true;
    });
    harness.tools.register(defineTool({ name: 'late', description: 'Came later.', tier: 'read-only', parameters: { type: 'object' }, execute: () => 'late' }));
    const deadline = Date.now() + 5_000;
    while (!changed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changed).toBe(true);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late');
  });

  it('refuses a rebound Host or a foreign Origin (DNS rebinding)', async () => {
    await connect();
    const url = served!.url!;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const post = (headers: Record<string, string>) => rawPost(url, body, { ...auth.headers, ...headers });
    expect((await post({ host: 'evil.example.com' })).status).toBe(421);
    expect((await post({ host: `127.0.0.1:${url.port}`, origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await post({ host: `127.0.0.1:${url.port}`, origin: `http://127.0.0.1:${url.port}` })).status).toBe(200);
  });

  it('refuses to listen anywhere but loopback', async () => {
    await expect(serveHarness(harness, { name: 'x', http: { host: '0.0.0.0' as never } })).rejects.toThrow(TypeError);
  });

  it('close() ends the sessions, the listener and the bridge plugin', async () => {
    await connect();
    const url = served!.url!;
    expect(harness.plugins()).toContain('mcp-serve:weir-test');
    await served!.close();
    served = undefined;
    expect(harness.plugins()).not.toContain('mcp-serve:weir-test');
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});

describe('both directions at once', () => {
  it('mcpServer({ url }) reaches a served harness that serves an mcpServer({ command }) over stdio', async () => {
    // harness A: the scripted stdio server's tools, served over HTTP; harness B: A's tools through mcpServer({ url }).
    await harness.use(mcpServer({ name: 'scripted', command: NODE, args: [fixture('scripted-server.mjs')], tiers: { '*': 'read-only' } }));
    served = await serveHarness(harness, { name: 'weir-a', http: { port: 0, token: TOKEN } });
    const other = createHarness();
    try {
      await other.use(mcpServer({ name: 'a', url: served.url!, headers: auth.headers, tiers: { '*': 'read-only' } }));
      expect(other.tools.names()).toEqual(expect.arrayContaining(['a__echo', 'a__scripted__echo', 'a__picture']));
      expect(await other.executeToolCall({ id: '1', name: 'a__scripted__echo', arguments: { text: 'round trip' } })).toMatchObject({ ok: true, content: 'echo: round trip' });
      const picture = await other.executeToolCall({ id: '2', name: 'a__picture', arguments: {} });
      expect(picture.ok && picture.value).toEqual([{ type: 'text', text: 'a dot:' }, { type: 'image', data: PNG, mediaType: 'image/png' }]);
      const failed = await other.executeToolCall({ id: '3', name: 'a__scripted__fail', arguments: {} });
      expect(failed).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR' } });
      expect(failed.content).toContain('the thing failed: disk full');
    } finally {
      await other.close();
    }
  });
});

async function rawPost(url: URL, body: string, headers: Record<string, string>): Promise<{ status: number }> {
  // fetch() sets Host itself; node:http lets the test send a forged one.
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: Number(url.port), path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
