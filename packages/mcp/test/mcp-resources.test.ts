import { createHarness, type Harness } from '@weir/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { EVERYTHING_BIN, fixture, NODE } from './servers.js';

let harness: Harness;
let seq = 0;
const call = (name: string, args: Record<string, unknown>) => harness.executeToolCall({ id: `res${++seq}`, name, arguments: args });

beforeAll(async () => {
  harness = createHarness();
  await harness.use(mcpServer({ name: 'everything', command: NODE, args: [EVERYTHING_BIN, 'stdio'] }));
  // A server without the resources capability gets no resources tool.
  await harness.use(mcpServer({ name: 'plain', command: NODE, args: [fixture('scripted-server.mjs')] }));
}, 60_000);
afterAll(() => harness?.close());

describe('a server\'s resources, through one tool per server', () => {
  it('is offered only for a server with the resources capability, read-only, with the server as its source', () => {
    const tool = harness.tools.get('everything__resources');
    expect(tool).toMatchObject({ tier: 'read-only', source: { plugin: 'mcp:everything', server: 'everything' } });
    expect(harness.tools.has('plain__resources')).toBe(false);
  });

  it('lists the resources, then reads one as text', async () => {
    const listed = await call('everything__resources', { action: 'list' });
    expect(listed.ok).toBe(true);
    const uri = /demo:\/\/resource\/static\/document\/[^\s]+/.exec(listed.content)?.[0];
    expect(uri).toBeDefined();
    const read = await call('everything__resources', { action: 'read', uri });
    expect(read).toMatchObject({ ok: true });
    expect(read.content.length).toBeGreaterThan(20);
    expect(read.content).toContain(uri!);
  });

  it('a read without a uri, or of an unknown one, is an error the model can read', async () => {
    expect(await call('everything__resources', { action: 'read' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(await call('everything__resources', { action: 'read', uri: 'demo://resource/none' })).toMatchObject({ ok: false, error: { code: 'MCP_ERROR' } });
  });
});

describe('resource templates and subscriptions', () => {
  it('lists the resource templates a server reads', async () => {
    const listed = await call('everything__resources', { action: 'templates' });
    expect(listed).toMatchObject({ ok: true });
    expect(listed.content).toMatch(/demo:\/\/resource\/dynamic\/text\/\{[^}]+\}/);
  });

  it('a subscribed resource that changes is told beside the next tool result, once; after unsubscribe, never', async () => {
    const listed = await call('everything__resources', { action: 'list' });
    const uri = /demo:\/\/resource\/static\/document\/[^\s]+/.exec(listed.content)![0];
    expect(await call('everything__resources', { action: 'subscribe', uri })).toMatchObject({ ok: true, content: expect.stringContaining(`Subscribed to ${uri}`) });
    expect((await call('everything__resources', { action: 'subscribe', uri })).content).toContain('Already subscribed');
    // The server sends an update for each subscribed resource at once, then every 5 s.
    const toggled = await call('everything__toggle-subscriber-updates', {});
    expect(toggled.ok).toBe(true);
    // The first update may come before the toggle's own answer, and is then told beside it.
    let told = toggled.context.find((line) => line.includes(uri));
    for (let tries = 0; tries < 200 && told === undefined; tries += 1) {
      const echoed = await call('everything__echo', { message: 'hi' });
      told = echoed.context.find((line) => line.includes(uri));
      if (told === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(told).toMatch(/^\[mcp: A resource of the server "everything" you subscribed to changed: demo:\/\/resource\/static\/document\/\S+\. Read it again with everything__resources action "read"/);
    // Told once: the next result carries nothing until the server speaks again.
    expect((await call('everything__echo', { message: 'again' })).context).toEqual([]);

    await call('everything__toggle-subscriber-updates', {});
    expect(await call('everything__resources', { action: 'unsubscribe', uri })).toMatchObject({ ok: true, content: `Unsubscribed from ${uri}.` });
    expect((await call('everything__resources', { action: 'unsubscribe', uri })).content).toBe(`Not subscribed to ${uri}.`);
  }, 30_000);

  it('subscribe needs a uri', async () => {
    expect(await call('everything__resources', { action: 'subscribe' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});
