import { createServer } from 'node:net';
import { createHarness, definePlugin, defineTool, isHarnessError, type Harness } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer, McpServerError, serveHarness, type ServedHarness } from '../src/index.js';

const TOKEN = 'reconnect-token-0123456789abcdef01234567';
let generation = 0;
const tools = () =>
  definePlugin({
    name: 'far-tools',
    setup(ctx) {
      const mine = ++generation;
      ctx.tools.register(defineTool({ name: 'which', description: 'Which server answers.', tier: 'read-only', parameters: { type: 'object' }, execute: () => `server ${mine}` }));
    },
  });

/** A port nobody listens on now (it was free a moment ago). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let far: Harness | undefined;
let served: ServedHarness | undefined;
let near: Harness;
beforeEach(() => {
  near = createHarness();
});
afterEach(async () => {
  await near.close();
  await served?.close();
  await far?.close();
  served = undefined;
  far = undefined;
});

/** (Re)starts the far side: a harness served over HTTP on `port`. */
async function startFar(port: number): Promise<void> {
  await served?.close();
  await far?.close();
  far = createHarness();
  await far.use(tools());
  served = await serveHarness(far, { name: 'far', http: { port, token: TOKEN } });
}

let seq = 0;
const call = () => near.executeToolCall({ id: `r${++seq}`, name: 'far__which', arguments: {} });

describe('an HTTP server that restarts is reached again, with a new session', () => {
  it('a restart between calls: the next call makes a new session and runs', async () => {
    const port = await freePort();
    await startFar(port);
    await near.use(mcpServer({ name: 'far', url: `http://127.0.0.1:${port}/mcp`, headers: { authorization: `Bearer ${TOKEN}` }, tiers: { '*': 'read-only' } }));
    expect(await call()).toMatchObject({ ok: true, content: 'server 1' });
    await startFar(port);
    // The first call after the restart may meet the old server's closed socket: it fails (it is never
    // sent twice: the old server may have run it) and the next one makes a new session.
    const first = await call();
    if (!first.ok) expect(first.error.code).toBe('MCP_SERVER_UNAVAILABLE');
    expect(await call()).toMatchObject({ ok: true, content: 'server 2' });
    expect(await call()).toMatchObject({ ok: true, content: 'server 2' });
  });

  it('a server that is down fails the call at once; once it is back, the next call runs; restarts are bounded', async () => {
    const port = await freePort();
    await startFar(port);
    await near.use(mcpServer({ name: 'far', url: `http://127.0.0.1:${port}/mcp`, headers: { authorization: `Bearer ${TOKEN}` }, tiers: { '*': 'read-only' }, reconnectAttempts: 2 }));
    await served!.close();
    served = undefined;
    expect(await call()).toMatchObject({ ok: false, error: { code: 'MCP_SERVER_UNAVAILABLE' } });
    await startFar(port);
    expect(await call()).toMatchObject({ ok: true, content: `server ${generation}` });
    await served!.close();
    served = undefined;
    const codes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const result = await call();
      codes.push(result.ok ? 'ok' : result.error.code);
    }
    expect(codes).toEqual(Array(4).fill('MCP_SERVER_UNAVAILABLE'));
    expect((await call()).content).toMatch(/stopped restarting it/);
  });
});

describe('secrets in a server URL are never shown', () => {
  it('an unreachable URL with a key and a password: the error shows neither', async () => {
    const port = await freePort();
    const error = await near.use(mcpServer({ name: 'secret', url: `http://alice:pw-hunter2@127.0.0.1:${port}/mcp?api_key=sk-live-42`, startTimeoutMs: 2_000 })).catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'PLUGIN_SETUP_FAILED')).toBe(true);
    const cause = (error as Error).cause as McpServerError;
    for (const text of [(error as Error).message, cause.message]) {
      expect(text).not.toMatch(/pw-hunter2|sk-live-42|alice/);
    }
    expect(cause.message).toContain(`127.0.0.1:${port}/mcp?api_key=***`);
  });

  it('a URL that does not parse: the options error shows neither', () => {
    let caught: unknown;
    try {
      mcpServer({ name: 'typo', url: 'http://alice:pw-hunter2@exa mple.com/mcp?api_key=sk-live-42' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as Error).message).toContain('is not a valid URL');
    expect((caught as Error).message).not.toMatch(/pw-hunter2|sk-live-42|alice/);
  });
});
