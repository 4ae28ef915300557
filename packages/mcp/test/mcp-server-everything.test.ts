import { createHarness, type Harness, type ToolResult } from '@weir/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { EVERYTHING_BIN, isGroupWatcher, NODE, processesOf } from './servers.js';

const everything = (extra: object = {}) => mcpServer({ name: 'everything', command: NODE, args: [EVERYTHING_BIN, 'stdio'], ...extra });
const valueOf = (result: ToolResult) => (result.ok ? result.value : undefined);

// One server for the calls that change nothing: node starts slowly on a busy machine.
describe('mcpServer over stdio against server-everything', () => {
  let harness: Harness;
  let seq = 0;
  const call = (name: string, args: Record<string, unknown> = {}) => harness.executeToolCall({ id: `c${++seq}`, name, arguments: args });

  beforeAll(async () => {
    harness = createHarness();
    await harness.use(everything({ tiers: { echo: 'read-only', '*': 'write' } }));
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('registers every tool as <name>__<tool> with its description and schema; tiers as mapped', () => {
    const names = harness.tools.names();
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__get-tiny-image']));
    expect(names.every((name) => name.startsWith('everything__'))).toBe(true);
    expect(harness.tools.get('everything__echo')!.tier).toBe('read-only');
    expect(harness.tools.get('everything__get-sum')!.tier).toBe('write');
    const echo = harness.tools.schemas().find((tool) => tool.name === 'everything__echo')!;
    expect(echo.description).toMatch(/echo/i);
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
  });

  it('records where each tool comes from: the plugin and the server', () => {
    expect(harness.tools.get('everything__echo')!.source).toEqual({ plugin: 'mcp:everything', server: 'everything' });
  });

  it('shows the server annotations as hints', () => {
    expect(harness.tools.get('everything__trigger-long-running-operation')!.description).toMatch(/Hints from the server, not verified: read-only/);
  });

  it('runs a tool that only runs as a task (simulate-research-query) through the task API, its stages as progress', async () => {
    // server-everything adds it once initialized, and says so with list_changed.
    const deadline = Date.now() + 5_000;
    while (!harness.tools.has('everything__simulate-research-query') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const messages: string[] = [];
    const result = await harness.executeToolCall(
      { id: 'research', name: 'everything__simulate-research-query', arguments: { topic: 'weirs' } },
      { onProgress: (update) => void (update.message !== undefined && messages.push(update.message)) },
    );
    expect(result).toMatchObject({ ok: true });
    expect(result.content).toContain('weirs');
    expect(messages.some((message) => /Gathering sources|Analyzing content|Synthesizing findings|Generating report/.test(message))).toBe(true);
  }, 20_000);

  it('calls echo and get-sum', async () => {
    const echo = await call('everything__echo', { message: 'hello' });
    expect(echo).toMatchObject({ ok: true });
    expect(echo.content).toContain('hello');
    const sum = await call('everything__get-sum', { a: 2, b: 3 });
    expect(sum.ok).toBe(true);
    expect(sum.content).toContain('5');
  });

  it('keeps the image of get-tiny-image as a part, in the value and in what the model reads', async () => {
    const result = await call('everything__get-tiny-image');
    expect(result.ok).toBe(true);
    const parts = valueOf(result) as readonly { type: string; mediaType?: string; data?: string }[];
    const image = parts.find((part) => part.type === 'image')!;
    expect(image.mediaType).toBe('image/png');
    expect(Buffer.from(image.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(result.parts).toContainEqual({ type: 'image', mediaType: 'image/png', data: image.data });
  });

  it('structuredContent is the value and outputSchema the output schema', async () => {
    expect(harness.tools.get('everything__get-structured-content')!.outputSchema).toBeDefined();
    const result = await call('everything__get-structured-content', { location: 'New York' });
    expect(result.ok).toBe(true);
    expect(valueOf(result)).toMatchObject({ temperature: expect.any(Number) });
  });

  it('keeps embedded resources and resource links', async () => {
    const reference = await call('everything__get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(reference.ok).toBe(true);
    expect(reference.content).toMatch(/\[resource: .*demo:\/\/resource/);
    const links = await call('everything__get-resource-links', { count: 2 });
    expect(links.ok).toBe(true);
    expect((valueOf(links) as readonly { type: string }[]).filter((part) => part.type === 'resource')).toHaveLength(2);
  });

  it('reports progress of the long-running operation and completes', async () => {
    const result = await call('everything__trigger-long-running-operation', { duration: 0.3, steps: 3 });
    expect(result).toMatchObject({ ok: true });
    expect(result.content).toMatch(/completed/i);
  });

  it('an invalid argument is INVALID_ARGUMENTS before the server sees it', async () => {
    const result = await call('everything__get-sum', { a: 'two', b: 3 });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});

describe('server-everything unload', () => {
  it('an unmapped tool is dangerous; unloading ends the process group (checked in /proc)', async () => {
    const harness = createHarness();
    try {
      const unload = await harness.use(everything());
      expect(harness.tools.get('everything__trigger-long-running-operation')!.tier).toBe('dangerous');
      const mine = processesOf(process.pid).filter((proc) => proc.ppid === process.pid && !isGroupWatcher(proc.pid));
      expect(mine).toHaveLength(1);
      const pid = mine[0]!.pid;
      await unload();
      expect(processesOf(pid)).toEqual([]);
      expect(harness.tools.names()).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
