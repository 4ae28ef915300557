import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHarness, definePlugin, defineTool, type Harness } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveHarness, type ServedHarness } from '../src/index.js';

const tools = definePlugin({
  name: 'auth-tools',
  setup(ctx) {
    ctx.tools.register(defineTool({ name: 'secret', description: 'Reads a secret.', tier: 'read-only', parameters: { type: 'object' }, execute: () => 'the secret' }));
    ctx.tools.register(defineTool({ name: 'erase', description: 'Needs approval.', tier: 'dangerous', parameters: { type: 'object' }, execute: () => 'erased' }));
    ctx.guards.add((call) => (call.tier === 'dangerous' ? { decision: 'ask', reason: 'it erases things' } : undefined));
  },
});

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
const post = (url: URL, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body: INITIALIZE, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } });

let harness: Harness;
let served: ServedHarness | undefined;
const clients: Client[] = [];
let dir: string;
beforeEach(async () => {
  harness = createHarness();
  await harness.use(tools);
  dir = mkdtempSync(join(tmpdir(), 'weir-serve-auth-'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await served?.close();
  served = undefined;
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

async function client(url: URL, token: string | undefined, onElicit?: () => { action: 'accept' }): Promise<Client> {
  const made = new Client({ name: 'auth-client', version: '1.0.0' }, { capabilities: onElicit ? { elicitation: {} } : {} });
  if (onElicit) made.setRequestHandler(ElicitRequestSchema, async () => onElicit());
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await made.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(made);
  return made;
}

describe('serveHarness over HTTP requires a bearer token', () => {
  it('refuses a request without the token or with a wrong one (401), and serves the right one', async () => {
    const token = 'a'.repeat(40);
    served = await serveHarness(harness, { name: 'auth', http: { port: 0, token } });
    expect(served.token).toBe(token);
    const none = await post(served.url!);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await post(served.url!, { authorization: `Bearer ${'a'.repeat(39)}b` })).status).toBe(401);
    expect((await post(served.url!, { authorization: token })).status).toBe(401);
    await expect(client(served.url!, undefined)).rejects.toThrow();
    const allowed = await client(served.url!, token);
    expect(await allowed.callTool({ name: 'secret', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'the secret' }] });
  });

  it('generates a token when none is given and prints it once to stderr', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    served = await serveHarness(harness, { name: 'printed', http: { port: 0 } });
    vi.restoreAllMocks();
    const token = served.token!;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(written.filter((line) => line.includes(token))).toHaveLength(1);
    expect((await post(served.url!)).status).toBe(401);
    await client(served.url!, token);
  });

  it('writes a generated token to tokenFile with mode 0600, and refuses a file that already exists', async () => {
    const file = join(dir, 'token');
    served = await serveHarness(harness, { name: 'filed', http: { port: 0, tokenFile: file } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(served.token);
    await client(served.url!, readFileSync(file, 'utf8').trim());

    const taken = join(dir, 'taken');
    writeFileSync(taken, 'someone else\n');
    await expect(serveHarness(harness, { name: 'second', http: { port: 0, tokenFile: taken } })).rejects.toThrow(/EEXIST/);
    expect(readFileSync(taken, 'utf8')).toBe('someone else\n');
    expect(harness.plugins()).not.toContain('mcp-serve:second');
  });

  it('refuses a short token, and a token with auth "none"', async () => {
    await expect(serveHarness(harness, { name: 'short', http: { token: 'short' } })).rejects.toThrow(/at least 32/);
    await expect(serveHarness(harness, { name: 'both', http: { auth: 'none', token: 'a'.repeat(40) } })).rejects.toThrow(TypeError);
  });

  it('auth "none" serves without a token (for a client that cannot send one)', async () => {
    served = await serveHarness(harness, { name: 'open', http: { port: 0, auth: 'none' } });
    expect(served.token).toBeUndefined();
    expect((await post(served.url!)).status).toBe(200);
  });
});

describe('who approves a call', () => {
  it('approvals "client" (default) asks the calling client; "deny" never lets it approve its own call', async () => {
    const token = 'b'.repeat(40);
    served = await serveHarness(harness, { name: 'asks', http: { port: 0, token } });
    let asked = 0;
    const asking = await client(served.url!, token, () => {
      asked += 1;
      return { action: 'accept' };
    });
    expect(await asking.callTool({ name: 'erase', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'erased' }] });
    expect(asked).toBe(1);
    await served.close();

    served = await serveHarness(harness, { name: 'denies', http: { port: 0, token }, approvals: 'deny' });
    const denied = await (await client(served.url!, token, () => {
      asked += 1;
      return { action: 'accept' };
    })).callTool({ name: 'erase', arguments: {} });
    expect(denied.isError).toBe(true);
    expect(asked).toBe(1);
    expect((denied.content as { text: string }[])[0]!.text).toMatch(/DENIED|APPROVAL/);
  });
});
