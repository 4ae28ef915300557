import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness, type ToolResult } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { childrenOfThisProcess, fixture, listProcesses, NODE } from './servers.js';

const SCRIPTED = fixture('scripted-server.mjs');
let harness: Harness;
beforeEach(() => {
  harness = createHarness();
});
afterEach(async () => {
  await harness.close();
  expect(childrenOfThisProcess()).toEqual([]);
});

let seq = 0;
const call = (name: string, args: Record<string, unknown> = {}) => harness.executeToolCall({ id: `e${++seq}`, name, arguments: args });
const pids = (result: ToolResult) => (result.ok ? result.value : {}) as { pid: number; grandchild: number };
const alive = (pid: number) => listProcesses().some((proc) => proc.pid === pid && proc.state !== 'Z');

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a stdio server that exits is found by its process, not its pipe', () => {
  it('exits mid-call while its helper holds stdout: the call fails at once, the helper is ended, the next call restarts it', async () => {
    // An idle deadline longer than the test's: a call left to hang on the open pipe would fail the test.
    await harness.use(mcpServer({ name: 'scripted', command: NODE, args: [SCRIPTED, '--grandchild', '--helper-holds-stdout', '--crash-on=echo'], tiers: { '*': 'read-only' }, idleTimeoutMs: 60_000 }));
    const first = pids(await call('scripted__pid'));
    expect(alive(first.grandchild)).toBe(true);
    const crashed = await call('scripted__echo', { text: 'x' });
    expect(crashed).toMatchObject({ ok: false, error: { code: 'MCP_SERVER_UNAVAILABLE' } });
    await until(() => !alive(first.grandchild));
    const second = pids(await call('scripted__pid'));
    expect(second.pid).not.toBe(first.pid);
    expect(alive(second.grandchild)).toBe(true);
  });

  it('a helper of a server that crashed does not outlive the restart (checked in /proc)', async () => {
    await harness.use(mcpServer({ name: 'scripted', command: NODE, args: [SCRIPTED, '--grandchild', '--crash-on=echo'], tiers: { '*': 'read-only' } }));
    const first = pids(await call('scripted__pid'));
    expect(await call('scripted__echo', { text: 'x' })).toMatchObject({ ok: false, error: { code: 'MCP_SERVER_UNAVAILABLE' } });
    const second = pids(await call('scripted__pid'));
    expect(second.pid).not.toBe(first.pid);
    expect(alive(first.pid)).toBe(false);
    await until(() => !alive(first.grandchild));
  });

  it('the servers and helpers of a weir process killed with SIGKILL are ended (checked in /proc)', async () => {
    const host = spawn(NODE, ['--import', 'tsx', '--conditions=@weir/source', fixture('host-scripted.ts')], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let text = '';
      host.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.split('\n')[0]!);
      });
      host.once('exit', () => reject(new Error('the host exited before printing its pids')));
    });
    const { pid, grandchild } = JSON.parse(line) as { pid: number; grandchild: number };
    expect(alive(pid) && alive(grandchild)).toBe(true);
    const gone = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGKILL');
    await gone;
    await until(() => !alive(pid) && !alive(grandchild));
  }, 60_000);
});
