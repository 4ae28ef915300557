// Tools that run only as tasks (execution.taskSupport "required"), against a server of the tests'
// own built with the SDK's McpServer and its in-memory task store (fixtures/task-server.mjs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness, type ToolProgress } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { childrenOfThisProcess, fixture, NODE } from './servers.js';

let harness: Harness;
let dir: string;
let eventsFile: string;
beforeEach(() => {
  harness = createHarness();
  dir = mkdtempSync(join(tmpdir(), 'weir-mcp-tasks-'));
  eventsFile = join(dir, 'events.log');
});
afterEach(async () => {
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
  expect(childrenOfThisProcess()).toEqual([]);
});

const tasks = (extra: object = {}) =>
  mcpServer({ name: 'tasks', command: NODE, args: [fixture('task-server.mjs'), `--events=${eventsFile}`], tiers: { '*': 'read-only' }, ...extra });
let seq = 0;
const call = (name: string, args: Record<string, unknown> = {}, options = {}) => harness.executeToolCall({ id: `t${++seq}`, name, arguments: args }, options);
const events = (): string[] => {
  try {
    return readFileSync(eventsFile, 'utf8').trim().split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
};
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms; the server saw: ${events().join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('tools with taskSupport "required"', () => {
  it('are offered like any tool, and run as a task: progress reaches exec.progress, the result is the tool result', async () => {
    await harness.use(tasks());
    expect(harness.tools.names()).toEqual(expect.arrayContaining(['tasks__crunch', 'tasks__explode', 'tasks__vanish', 'tasks__echo_now']));
    const progress: ToolProgress[] = [];
    const result = await call('tasks__crunch', { steps: 5 }, { onProgress: (update: ToolProgress) => progress.push(update) });
    expect(result).toMatchObject({ ok: true, content: 'crunched 5 steps' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.some((update) => /step \d/.test(update.message ?? ''))).toBe(true);
    expect(events()).toEqual([expect.stringMatching(/^completed /)]);
    expect(events()).not.toContain('notifications/cancelled');
    // An ordinary tool of the same server is still called directly.
    expect(await call('tasks__echo_now', { text: 'direct' })).toMatchObject({ ok: true, content: 'direct' });
  });

  it('an abort cancels the task: the server sees tasks/cancel, the call is ABORTED', async () => {
    await harness.use(tasks());
    const controller = new AbortController();
    const progress: ToolProgress[] = [];
    const running = call('tasks__crunch', { steps: 400 }, { signal: controller.signal, onProgress: (update: ToolProgress) => progress.push(update) });
    // Several steps: several polls of tasks/get went before the abort.
    await until(() => progress.length >= 5);
    controller.abort();
    expect(await running).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    await until(() => events().some((line) => line.startsWith('cancelled ')));
    const seen = events();
    expect(seen.filter((line) => line.startsWith('cancelled '))).toEqual([expect.stringMatching(/^cancelled \S+ at step \d+$/)]);
    // At most the poll in flight is cancelled: not every poll answered before it.
    expect(seen.filter((line) => line === 'notifications/cancelled').length).toBeLessThanOrEqual(1);
    // The session is intact: the next call runs.
    expect(await call('tasks__crunch', { steps: 1 })).toMatchObject({ ok: true, content: 'crunched 1 steps' });
  });

  it('the deadline cancels the task too', async () => {
    await harness.use(tasks({ timeoutMs: 300 }));
    expect(await call('tasks__crunch', { steps: 400 })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    await until(() => events().some((line) => line.startsWith('cancelled ')));
  });

  it('a task that fails with an error result is MCP_TOOL_ERROR with the server text', async () => {
    await harness.use(tasks());
    const result = await call('tasks__crunch', { steps: 5, failAt: 2 });
    expect(result).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR', message: 'step 2 broke: the input was odd' } });
  });

  it('a task that fails without a result is MCP_TASK_FAILED with its status message', async () => {
    await harness.use(tasks());
    const result = await call('tasks__explode');
    expect(result).toMatchObject({ ok: false, error: { code: 'MCP_TASK_FAILED' } });
    expect(result.ok ? '' : result.error.message).toContain('the reactor is out of coolant');
  });

  it('a task the server cancels is MCP_TASK_CANCELLED with its status message', async () => {
    await harness.use(tasks());
    const result = await call('tasks__withdraw');
    expect(result).toMatchObject({ ok: false, error: { code: 'MCP_TASK_CANCELLED' } });
    expect(result.ok ? '' : result.error.message).toContain('the operator stopped it');
  });

  it('a server that exits during a task is MCP_SERVER_UNAVAILABLE; the next call starts it again', async () => {
    await harness.use(tasks());
    expect(await call('tasks__vanish')).toMatchObject({ ok: false, error: { code: 'MCP_SERVER_UNAVAILABLE' } });
    expect(await call('tasks__crunch', { steps: 1 })).toMatchObject({ ok: true });
  });

  it('a server without the tasks capability has its required-task tools skipped with a warning', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (_fields: object, message: string) => warnings.push(message), child() { return logger; } };
    const quiet = createHarness({ logger: logger as never });
    try {
      await quiet.use(mcpServer({ name: 'notasks', command: NODE, args: [fixture('task-server.mjs'), '--no-task-capability'] }));
      expect(quiet.tools.names()).not.toContain('notasks__crunch');
      expect(quiet.tools.names()).toContain('notasks__echo_now');
      expect(warnings).toContainEqual(expect.stringMatching(/skipped the MCP tool "crunch": it can only be run as a task .*no tasks\.requests\.tools\.call/));
    } finally {
      await quiet.close();
    }
  });
});
