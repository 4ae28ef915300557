import { createHarness, definePlugin, isHarnessError, type Harness, type ToolExecution, type ToolResult } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer, McpServerError } from '../src/index.js';
import { childrenOfThisProcess, fixture, NODE, processesOf } from './servers.js';

const SCRIPTED = fixture('scripted-server.mjs');
let harness: Harness;
beforeEach(() => {
  harness = createHarness();
});
afterEach(async () => {
  await harness.close();
  expect(childrenOfThisProcess()).toEqual([]);
});

const scripted = (args: string[] = [], extra: object = {}) =>
  mcpServer({ name: 'scripted', command: NODE, args: [SCRIPTED, ...args], tiers: { '*': 'read-only' }, ...extra });
let seq = 0;
const call = (name: string, args: Record<string, unknown> = {}, options = {}) => harness.executeToolCall({ id: `c${++seq}`, name, arguments: args }, options);
const valueOf = (result: ToolResult) => (result.ok ? result.value : undefined) as Record<string, number | null>;

async function setupError(promise: Promise<unknown>): Promise<McpServerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isHarnessError(error, 'PLUGIN_SETUP_FAILED')).toBe(true);
  const cause = (error as Error).cause;
  expect(cause).toBeInstanceOf(McpServerError);
  return cause as McpServerError;
}

describe('start-up failures fail use() and leave nothing', () => {
  it('a server that exits at start: the error names it and carries its stderr tail', async () => {
    const cause = await setupError(harness.use(scripted(['--exit-at-start'])));
    expect(cause.code).toBe('MCP_START_FAILED');
    expect(cause.server).toBe('scripted');
    expect(cause.message).toContain('"scripted"');
    expect(cause.message).toMatch(/exited \(code 3\)/);
    expect(cause.stderr).toContain('cannot open the database');
    expect(harness.tools.names()).toEqual([]);
    expect(harness.plugins()).toEqual([]);
  });

  it('a command that does not exist', async () => {
    const cause = await setupError(harness.use(mcpServer({ name: 'nothing', command: '/nonexistent/mcp-server' })));
    expect(cause.code).toBe('MCP_START_FAILED');
    expect(cause.message).toMatch(/not found/);
  });

  it('a server that hangs at start: MCP_START_TIMEOUT, and the process is gone', async () => {
    const cause = await setupError(harness.use(scripted(['--hang-at-start', '--grandchild'], { startTimeoutMs: 300 })));
    expect(cause.code).toBe('MCP_START_TIMEOUT');
    expect(cause.message).toContain('300 ms');
    expect(harness.tools.names()).toEqual([]);
  });
});

describe('results', () => {
  it('isError becomes an error result the model reads', async () => {
    await harness.use(scripted());
    const result = await call('scripted__fail');
    expect(result).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR', message: 'the thing failed: disk full' } });
    expect(result.content).toBe('Error [MCP_TOOL_ERROR]: the thing failed: disk full');
  });

  it('the output schema is checked by the pipeline: a structured value that misses it, or none, is INVALID_OUTPUT', async () => {
    await harness.use(scripted());
    expect(await call('scripted__typed', { mode: 'good' })).toMatchObject({ ok: true, value: { n: 1 } });
    expect(await call('scripted__typed', { mode: 'wrong' })).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
    expect(await call('scripted__typed', { mode: 'none' })).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
  });

  it('a protocol error (unknown tool on the server) is an error result, not a crash', async () => {
    await harness.use(scripted());
    // Register a weir tool the server does not have by swapping, then calling the old name.
    await call('scripted__swap');
    await until(() => harness.tools.has('scripted__added'));
    const stale = await call('scripted__fail');
    expect(stale).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
  });
});

describe('cancellation and deadlines', () => {
  /** A slow call aborted mid-way: the result is ABORTED and the server heard notifications/cancelled. */
  async function expectAbortToCancel(): Promise<void> {
    const controller = new AbortController();
    const running = call('scripted__slow', { ms: 10_000 }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    expect(await running).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    await until(async () => valueOf(await call('scripted__pid')).cancelled === 1);
  }

  it('an abort sends notifications/cancelled to the server', async () => {
    await harness.use(scripted());
    await expectAbortToCancel();
  });

  it('an exec without onAbort (made by a wrapper) still cancels through its signal', async () => {
    await harness.use(scripted());
    await harness.use(
      definePlugin({
        name: 'hand-made-exec',
        setup(ctx) {
          ctx.hooks.execute.tap('hand-made-exec', (dispatch) => (args, exec) => {
            const { onAbort: _dropped, ...rest } = exec;
            return dispatch(args, rest as ToolExecution);
          });
        },
      }),
    );
    await expectAbortToCancel();
  });

  it('the hard total deadline holds however often the server reports progress', async () => {
    await harness.use(scripted([], { timeoutMs: 400, idleTimeoutMs: 200 }));
    const started = performance.now();
    const result = await call('scripted__slow', { ms: 10_000, every: 50 });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(2_000);
    await until(async () => valueOf(await call('scripted__pid')).cancelled === 1);
  });

  it('progress renews the idle deadline; silence past it cancels the call', async () => {
    await harness.use(scripted([], { idleTimeoutMs: 250 }));
    expect(await call('scripted__slow', { ms: 600, every: 50 })).toMatchObject({ ok: true });
    const silent = await call('scripted__slow', { ms: 5_000 });
    expect(silent).toMatchObject({ ok: false, error: { code: 'MCP_IDLE_TIMEOUT' } });
  });

  it('progress updates reach exec.progress when the core offers it', async () => {
    const updates: unknown[] = [];
    await harness.use(scripted());
    // Until the core's exec.progress lands, an execute tap stands in for it.
    harness.hooks.execute.tap('progress-probe', (dispatch) => (args, exec) => dispatch(args, { ...exec, progress: (update: unknown) => updates.push(update) } as typeof exec));
    expect(await call('scripted__slow', { ms: 400, every: 60 })).toMatchObject({ ok: true });
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(updates[0]).toMatchObject({ progress: 1, message: 'step 1' });
  });
});

describe('a server that dies', () => {
  it('mid-call gives an error result; the next call starts it again', async () => {
    await harness.use(scripted());
    const first = valueOf(await call('scripted__pid')).pid!;
    const running = call('scripted__slow', { ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(first, 'SIGKILL');
    const died = await running;
    expect(died).toMatchObject({ ok: false, error: { code: 'MCP_SERVER_UNAVAILABLE' } });
    expect(died.content).toContain('"scripted"');
    const second = valueOf(await call('scripted__pid')).pid!;
    expect(second).not.toBe(first);
    expect(processesOf(first)).toEqual([]);
  });

  it('restarts are bounded: a server that crashes on every call is given up', async () => {
    await harness.use(scripted(['--crash-on=echo'], { reconnectAttempts: 2 }));
    const codes: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const result = await call('scripted__echo', { text: 'x' });
      codes.push(result.ok ? 'ok' : result.error.code);
    }
    expect(codes).toEqual(Array(5).fill('MCP_SERVER_UNAVAILABLE'));
    const last = await call('scripted__echo', { text: 'x' });
    expect(last.content).toMatch(/stopped restarting it/);
  });
});

describe('list_changed', () => {
  it('swaps the tool list at once; a call already running finishes against its tool', async () => {
    await harness.use(scripted());
    const before = harness.tools.get('scripted__echo')!;
    const running = call('scripted__slow', { ms: 300 });
    expect(await call('scripted__swap')).toMatchObject({ ok: true });
    await until(() => harness.tools.has('scripted__added'));
    expect(harness.tools.names().sort()).toEqual(['scripted__added', 'scripted__echo', 'scripted__pid', 'scripted__slow']);
    expect(harness.tools.get('scripted__echo')).not.toBe(before);
    expect(harness.tools.get('scripted__echo')!.description).toContain('capitals');
    expect(await running).toMatchObject({ ok: true, content: 'slept 300 ms' });
    expect(await call('scripted__added')).toMatchObject({ ok: true, content: 'added tool ran' });
  });
});

describe('process tree', () => {
  it('unloading ends the server and its grandchild (checked in /proc)', async () => {
    const unload = await harness.use(scripted(['--grandchild']));
    const { pid, grandchild } = valueOf(await call('scripted__pid'));
    expect(processesOf(pid!).map((proc) => proc.pid)).toEqual(expect.arrayContaining([pid, grandchild]));
    await unload();
    expect(processesOf(pid!)).toEqual([]);
    expect(listPids()).not.toContain(grandchild);
  });

  it('100 load/unload cycles leave no child process and no handle', async () => {
    const handlesBefore = activeHandles();
    for (let i = 0; i < 100; i += 1) {
      const unload = await harness.use(mcpServer({ name: 'tiny', command: fixture('tiny-server.sh'), tiers: { '*': 'read-only' } }));
      if (i % 25 === 0) expect(await call('tiny__ping')).toMatchObject({ ok: true, content: 'pong' });
      await unload();
    }
    expect(childrenOfThisProcess()).toEqual([]);
    expect(harness.tools.names()).toEqual([]);
    expect(activeHandles()).toBeLessThanOrEqual(handlesBefore);
  }, 60_000);
});

function activeHandles(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap' && kind !== 'Timeout').length;
}

function listPids(): number[] {
  return processesOf(process.pid).map((proc) => proc.pid);
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
