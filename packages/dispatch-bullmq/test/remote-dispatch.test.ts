import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, defineTool, definePlugin, type Harness, type ToolResult } from '@weir/core';
import { remoteDispatch, type RemoteProgress } from '@weir/dispatch-bullmq';
import { leftoverKeys } from './fixtures/leftover-keys.js';
import { freePort, startRedis, type TestRedis } from './fixtures/redis-server.js';
import { spawnWorker, type WorkerProcess } from './fixtures/spawn-worker.js';
import { TEST_SIGNING_KEY } from './fixtures/signing-key.js';
import { testTools } from './fixtures/test-tools.js';

// Scenarios cross processes and Redis: on a busy machine one can take several seconds.
vi.setConfig({ testTimeout: 30_000 });

// One Redis and one worker process for the file; each test uses its own calls.
let redis: TestRedis;
let worker: WorkerProcess;
let dir: string;
let harness: Harness;
const progress: RemoteProgress[] = [];
const queue = 'tools';

const agentOnly = definePlugin({
  name: 'agent-only',
  setup(ctx) {
    ctx.tools.register(
      defineTool({ name: 'agent_only', description: 'Known to the agent, not to the worker.', tier: 'read-only', parameters: { type: 'object', properties: {} }, execute: () => 'local' }),
    );
  },
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weir-dispatch-'));
  redis = await startRedis();
  worker = await spawnWorker({ REDIS_URL: redis.url, QUEUE: queue, EFFECTS_DIR: dir });
  harness = createHarness();
  await harness.use(testTools(dir));
  await harness.use(agentOnly);
  await harness.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue, pickupTimeoutMs: 5_000, onProgress: (event) => progress.push(event) }));
  // A guard on the agent: it denies one line, so that call never reaches the queue.
  harness.hooks.prepareExecution.tap('deny-secret', (preparation) => {
    if (preparation.status === 'ready' && preparation.arguments.line === 'secret') return { action: 'block', reason: 'no secrets' };
    return undefined;
  });
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await worker?.stop();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

function failure(result: ToolResult) {
  expect(result.ok).toBe(false);
  return result.ok ? undefined : result.error;
}

describe('remoteDispatch with a worker process', () => {
  it('runs a batch of calls on the worker and answers in call order', async () => {
    const calls = [0, 1, 2, 3, 4, 5].map((n) => ({ id: `c${n}`, name: 'echo', arguments: { text: `t${n}`, delayMs: (5 - n) * 20 } }));
    const results = await harness.executeToolCalls(calls);
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.id));
    for (const [n, result] of results.entries()) {
      expect(result.ok).toBe(true);
      expect(result.ok && result.value).toEqual({ text: `t${n}`, pid: worker.pid, attempt: 1 });
      expect(result.attempts).toBe(1);
    }
  });

  it('keeps policy on the agent: a blocked call never reaches the worker', async () => {
    const result = await harness.executeToolCall({ id: 'b1', name: 'append_line', arguments: { line: 'secret' } });
    expect(failure(result)?.code).toBe('BLOCKED');
    const written = await harness.executeToolCall({ id: 'b2', name: 'append_line', arguments: { line: 'public' } });
    expect(written.ok).toBe(true);
    expect(await readFile(path.join(dir, 'effects.log'), 'utf8')).toBe('public\n');
  });

  it('validates the output on the agent: a value that does not match the schema is INVALID_OUTPUT', async () => {
    const result = await harness.executeToolCall({ id: 'o1', name: 'wrong_shape', arguments: {} });
    expect(failure(result)?.code).toBe('INVALID_OUTPUT');
  });

  it("applies the tool's retry policy on the agent: one job per attempt, the attempt number reaches the body", async () => {
    const result = await harness.executeToolCall({ id: 'f1', name: 'flaky', arguments: { tag: 'flaky1' } });
    expect(result.ok && result.value).toEqual({ attempt: 3 });
    expect(result.attempts).toBe(3);
    expect(await readFile(path.join(dir, 'flaky1.runs'), 'utf8')).toBe('1\n2\n3\n');
  });

  it('answers TOOL_NOT_FOUND, naming the worker, for a tool the worker does not have', async () => {
    const result = await harness.executeToolCall({ id: 'n1', name: 'agent_only', arguments: {} });
    expect(failure(result)?.code).toBe('TOOL_NOT_FOUND');
    expect(result.content).toContain('worker on queue "tools"');
  });

  it('carries progress back and stops the body on the worker when the caller aborts', async () => {
    const controller = new AbortController();
    const running = harness.executeToolCall({ id: 'a1', name: 'wait_for_abort', arguments: { tag: 'abort1' } }, { signal: controller.signal });
    await waitFor(() => existsSync(path.join(dir, 'abort1.started')));
    await waitFor(() => progress.filter((p) => p.callId === 'a1').length === 2);
    controller.abort();
    const result = await running;
    expect(failure(result)?.code).toBe('ABORTED');
    // The body writes the file after it stopped: wait until what it wrote is there, not only the file.
    await waitFor(() => existsSync(path.join(dir, 'abort1.stopped')) && readFileSync(path.join(dir, 'abort1.stopped'), 'utf8') !== '');
    expect(await readFile(path.join(dir, 'abort1.stopped'), 'utf8')).toBe('true');
    expect(progress.filter((p) => p.callId === 'a1').map((p) => p.update)).toEqual([{ progress: 1, total: 2 }, { progress: 2, total: 2 }]);
  });

  it('stops the body on the worker when the signal an execute wrapper handed the call aborts', async () => {
    // A wrapper loaded after remoteDispatch hands the remote dispatch a signal of its own: its
    // abort must reach the worker too, though the caller's signal never aborts.
    const wrapped = createHarness();
    const wrapper = new AbortController();
    await wrapped.use(testTools(dir));
    await wrapped.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue }));
    await wrapped.use(
      definePlugin({
        name: 'own-signal',
        setup(ctx) {
          ctx.hooks.execute.tap((dispatch) => (args, exec) => dispatch(args, { ...exec, signal: wrapper.signal }));
        },
      }),
    );
    try {
      const running = wrapped.executeToolCall({ id: 'a2', name: 'wait_for_abort', arguments: { tag: 'abort2' } });
      await waitFor(() => existsSync(path.join(dir, 'abort2.started')));
      wrapper.abort();
      await waitFor(() => existsSync(path.join(dir, 'abort2.stopped')) && readFileSync(path.join(dir, 'abort2.stopped'), 'utf8') !== '');
      expect(await readFile(path.join(dir, 'abort2.stopped'), 'utf8')).toBe('true');
      expect(failure(await running)?.code).toBe('ABORTED');
    } finally {
      await wrapped.close();
    }
  });

  it('stops the body on the worker at the call deadline', async () => {
    const result = await harness.executeToolCall({ id: 'd1', name: 'short_deadline', arguments: { tag: 'deadline1' } });
    expect(failure(result)?.code).toBe('TIMEOUT');
    // The body writes the file after it stopped: wait until what it wrote is there, not only the file.
    await waitFor(() => existsSync(path.join(dir, 'deadline1.stopped')) && readFileSync(path.join(dir, 'deadline1.stopped'), 'utf8') !== '');
    expect(await readFile(path.join(dir, 'deadline1.stopped'), 'utf8')).toBe('true');
  });
});

describe('failures are results', () => {
  it('answers NO_WORKER when no worker takes the job in time, and leaves no job behind', async () => {
    const lonely = createHarness();
    await lonely.use(testTools(dir));
    await lonely.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue: 'nobody-listens', pickupTimeoutMs: 300 }));
    try {
      const result = await lonely.executeToolCall({ id: 'w1', name: 'echo', arguments: { text: 'hello?' } });
      expect(failure(result)?.code).toBe('NO_WORKER');
      expect(result.content).toContain('nobody-listens');
      expect(await jobKeys('nobody-listens')).toEqual([]);
    } finally {
      await lonely.close();
    }
  });

  it('answers REDIS_UNAVAILABLE quickly when Redis cannot be reached', async () => {
    const port = await freePort();
    const offline = createHarness();
    await offline.use(testTools(dir));
    await offline.use(remoteDispatch({ connection: { host: '127.0.0.1', port }, signingKey: TEST_SIGNING_KEY, queue, connectTimeoutMs: 300 }));
    try {
      const started = performance.now();
      const result = await offline.executeToolCall({ id: 'r1', name: 'echo', arguments: { text: 'x' } });
      expect(failure(result)?.code).toBe('REDIS_UNAVAILABLE');
      expect(result.content).toContain(`127.0.0.1:${port}`);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await offline.close();
    }
  });
});

function jobKeys(name: string): Promise<string[]> {
  return leftoverKeys(redis.url, name);
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
