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
