import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '@weir/core';
import { remoteDispatch } from '@weir/dispatch-bullmq';
import { leftoverKeys } from './fixtures/leftover-keys.js';
import { startRedis, type TestRedis } from './fixtures/redis-server.js';
import { spawnWorker, type WorkerProcess } from './fixtures/spawn-worker.js';
import { TEST_SIGNING_KEY } from './fixtures/signing-key.js';
import { testTools } from './fixtures/test-tools.js';

let redis: TestRedis;
let worker: WorkerProcess;
let dir: string;
let harness: Harness;
const queue = 'many';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weir-many-'));
  redis = await startRedis();
  worker = await spawnWorker({ REDIS_URL: redis.url, QUEUE: queue, EFFECTS_DIR: dir, WORKER_OPTIONS: JSON.stringify({ concurrency: 32 }) });
  harness = createHarness();
  await harness.use(testTools(dir));
  await harness.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue }));
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await worker?.stop();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

it('1,000 calls come back in call order, and no job is left in Redis after they settle', async () => {
  const calls = Array.from({ length: 1_000 }, (_, n) => ({ id: `call_${n % 10}`, name: 'echo', arguments: { text: `n${n}` } }));
  const results = await harness.executeToolCalls(calls, { concurrency: 32 });
  expect(results).toHaveLength(1_000);
  expect(results.every((r) => r.ok)).toBe(true);
  // The model's call ids repeat (call_0..call_9); the jobs did not collide: each answer is its own call's.
  expect(results.map((r) => (r.ok ? (r.value as { text: string }).text : r.error.code))).toEqual(calls.map((c) => c.arguments.text));

  // The start marks go right after BullMQ stored each answer; give the last few a moment.
  const until = Date.now() + 5_000;
  let left = await leftoverKeys(redis.url, queue);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await leftoverKeys(redis.url, queue);
  }
  expect(left).toEqual([]);
}, 120_000);
