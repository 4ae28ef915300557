import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHarness, type Harness } from '@weir/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRoots, mcpServer } from '../src/index.js';
import { fixture, NODE } from './servers.js';

let harness: Harness;
let workspace: string;
const roots = () => mcpRoots([workspace]);
let shared: ReturnType<typeof roots>;

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'weir-roots-'));
  shared = roots();
  harness = createHarness();
  await harness.use(mcpServer({ name: 'a', command: NODE, args: [fixture('scripted-server.mjs')], roots: shared }));
  await harness.use(mcpServer({ name: 'b', command: NODE, args: [fixture('scripted-server.mjs')] }));
});
afterAll(async () => {
  await harness?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const askRoots = async (server: string) => {
  const result = await harness.executeToolCall({ id: `r-${server}-${Math.random()}`, name: `${server}__roots`, arguments: {} });
  if (!result.ok) throw new Error(result.content);
  return JSON.parse(result.content) as { roots?: { uri: string; name: string }[]; changed: number; error?: { code: number } };
};

describe('MCP roots', () => {
  it('a server asking roots/list is told the workspace root; without roots it is refused (no capability offered)', async () => {
    expect(await askRoots('a')).toEqual({ roots: [{ uri: pathToFileURL(workspace).href, name: workspace.split('/').at(-1) }], changed: 0 });
    expect(await askRoots('b')).toMatchObject({ error: { code: -32601 } });
  });

  it('a change is announced (roots/list_changed) and the next roots/list has it', async () => {
    const other = join(workspace, 'sub');
    shared.set([workspace, other]);
    const after = await askRoots('a');
    expect(after.changed).toBe(1);
    expect(after.roots!.map((root) => root.uri)).toEqual([pathToFileURL(workspace).href, pathToFileURL(other).href]);
    // A server not sharing those roots is told nothing.
    expect((await askRoots('b')).changed).toBe(0);
    expect((await askRoots('a')).changed).toBe(1);
  });

  it('bad roots are a TypeError at mcpServer()', () => {
    expect(() => mcpServer({ name: 'c', command: NODE, roots: [''] })).toThrow(/roots must be an array of folder paths/);
    expect(() => mcpRoots([3 as never])).toThrow(TypeError);
  });
});
