import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, INTERRUPTED_CALL_CONTENT, type Harness } from '@weir/core';
import { remoteDispatch } from '@weir/dispatch-bullmq';
import { leftoverKeys } from './fixtures/leftover-keys.js';
import { startRedis, type TestRedis } from './fixtures/redis-server.js';
import { spawnWorker, type WorkerProcess } from './fixtures/spawn-worker.js';
import { TEST_SIGNING_KEY } from './fixtures/signing-key.js';
import { testTools } from './fixtures/test-tools.js';

// Workers that give up a dead worker's jobs fast: a 2 s lock, a stalled check every second.
const WORKER_OPTIONS = JSON.stringify({ lockDurationMs: 2_000, stalledIntervalMs: 1_000, maxStalledCount: 1, concurrency: 2 });
const queue = 'crash';

let redis: TestRedis;
let dir: string;
let harness: Harness;
const workers: WorkerProcess[] = [];

async function worker(): Promise<WorkerProcess> {
  const started = await spawnWorker({ REDIS_URL: redis.url, QUEUE: queue, EFFECTS_DIR: dir, WORKER_OPTIONS });
  workers.push(started);
  return started;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weir-crash-'));
  redis = await startRedis();
  harness = createHarness();
  await harness.use(testTools(dir));
  await harness.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue, connectTimeoutMs: 5_000 }));
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

// Whole lines only: a file just created by appendFile is empty until its write lands.
const lines = (file: string) => (existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), 'utf8').split('\n').filter((line) => line !== '') : []);

it('a worker SIGKILLed mid-job: the write does not run twice (interrupted), the read-only call runs again', async () => {
  const first = await worker();
  const write = harness.executeToolCall({ id: 'w', name: 'append_line', arguments: { line: 'once', holdMs: 60_000 } });
  const read = harness.executeToolCall({ id: 'r', name: 'read_slowly', arguments: { tag: 'look', holdMs: 3_000 } });
  await waitFor(() => lines('effects.log').length === 1 && lines('reads.log').length === 1);
  await first.kill();

  const second = await worker();
  const [written, looked] = await Promise.all([write, read]);
  expect(written.ok).toBe(false);
  expect(!written.ok && written.error.code).toBe('INTERRUPTED');
  expect(written.content).toContain(INTERRUPTED_CALL_CONTENT);
  expect(lines('effects.log')).toEqual(['once']);

  // The read-only call was run again, by the second worker, and its result is the answer.
  expect(lines('reads.log')).toEqual([`look ${first.pid}`, `look ${second.pid}`]);
  expect(looked.ok && looked.value).toEqual({ tag: 'look', pid: second.pid });
}, 120_000);

it('two workers share a queue', async () => {
  if (workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).length < 2) await worker();
  const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).map((w) => w.pid);
  const calls = Array.from({ length: 16 }, (_, n) => ({ id: `s${n}`, name: 'echo', arguments: { text: `t${n}`, delayMs: 150 } }));
  const results = await harness.executeToolCalls(calls, { concurrency: 16 });
  const pids = new Set(results.map((r) => (r.ok ? (r.value as { pid: number }).pid : r.error.code)));
  expect([...pids].sort()).toEqual([...live].sort());
}, 120_000);

it('Redis restarted between calls: the next call goes through', async () => {
  const before = await harness.executeToolCall({ id: 'before', name: 'echo', arguments: { text: 'a' } });
  expect(before.ok).toBe(true);
  await redis.restart();
  const after = await harness.executeToolCall({ id: 'after', name: 'echo', arguments: { text: 'b' } });
  expect(after.ok && after.value).toMatchObject({ text: 'b' });
  await waitFor(async () => (await leftoverKeys(redis.url, queue)).length === 0);
}, 120_000);

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('Redis restarted without its data while a call is out: the call is answered as interrupted', async () => {
  const out = harness.executeToolCall({ id: 'lost', name: 'append_line', arguments: { line: 'during-restart', holdMs: 3_000 } });
  await waitFor(() => lines('effects.log').includes('during-restart'));
  await redis.restart();
  const result = await out;
  expect(!result.ok && result.error.code).toBe('INTERRUPTED');
  expect(result.content).toContain(INTERRUPTED_CALL_CONTENT);
}, 120_000);
