import { createHarness, type Harness, type ToolResult } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { childrenOfThisProcess, fixture, NODE } from './servers.js';

let harness: Harness;
beforeEach(async () => {
  harness = createHarness();
  await harness.use(mcpServer({ name: 'scripted', command: NODE, args: [fixture('scripted-server.mjs')], tiers: { '*': 'read-only' }, idleTimeoutMs: 60_000 }));
});
afterEach(async () => {
  await harness.close();
  expect(childrenOfThisProcess()).toEqual([]);
});

let seq = 0;
const call = (name: string, args: Record<string, unknown> = {}) => harness.executeToolCall({ id: `o${++seq}`, name, arguments: args });
const pidOf = async () => ((await call('scripted__pid')) as ToolResult & { value: { pid: number } }).value.pid;
const ELEVEN_MIB = 11 * 1024 * 1024;

describe('an answer over 10 MiB', () => {
  it.each([false, true])('fails only its own call with OUTPUT_TOO_LARGE naming the cap; the calls around it and the connection live (id last: %s)', async (idLast) => {
    const pid = await pidOf();
    const slow = call('scripted__slow', { ms: 400 });
    const big = call('scripted__big', { bytes: ELEVEN_MIB, idLast });
    const echo = call('scripted__echo', { text: 'after' });
    const oversized = await big;
    expect(oversized).toMatchObject({ ok: false, error: { code: 'OUTPUT_TOO_LARGE' } });
    expect(oversized.content).toContain('10 MiB');
    expect(oversized.content.split('\n')).toHaveLength(1);
    expect(await echo).toMatchObject({ ok: true, content: 'echo: after' });
    expect(await slow).toMatchObject({ ok: true, content: 'slept 400 ms' });
    expect(await pidOf()).toBe(pid);
  });

  it('four of them in a row do not make the server be given up', async () => {
    for (let i = 0; i < 4; i += 1) expect(await call('scripted__big', { bytes: ELEVEN_MIB })).toMatchObject({ ok: false, error: { code: 'OUTPUT_TOO_LARGE' } });
    expect(await call('scripted__echo', { text: 'still here' })).toMatchObject({ ok: true, content: 'echo: still here' });
  });

  it('an answer just under the cap still arrives whole', async () => {
    const result = await call('scripted__big', { bytes: 9 * 1024 * 1024 });
    expect(result.ok && (result.value as { text: string }[])[0]!.text.length).toBe(9 * 1024 * 1024);
  });
});
