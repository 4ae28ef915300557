import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '@weir/core';
import { remoteDispatch, type RemoteProgress } from '@weir/dispatch-bullmq';
import { redisContents } from './fixtures/redis-contents.js';
import { startRedis, type TestRedis } from './fixtures/redis-server.js';
import { TEST_SIGNING_KEY } from './fixtures/signing-key.js';
import { spawnWorker, type WorkerProcess } from './fixtures/spawn-worker.js';
import { testTools } from './fixtures/test-tools.js';

// After a call settles, a reader of Redis must not find its arguments, progress or result in any
// key: not in the job (removed on completion), not in BullMQ's event stream (bull:<queue>:events).

// Generous: on a loaded CI machine a worker process may take many seconds to stop a body and answer; a hang still fails, saying what stayed.
vi.setConfig({ testTimeout: 90_000 });
const queue = 'leaves-nothing';

let redis: TestRedis;
let worker: WorkerProcess;
let dir: string;
let harness: Harness;
const progress: RemoteProgress[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weir-stays-'));
  redis = await startRedis();
  worker = await spawnWorker({ REDIS_URL: redis.url, QUEUE: queue, EFFECTS_DIR: dir });
  harness = createHarness();
  await harness.use(testTools(dir));
  await harness.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue, onProgress: (event) => progress.push(event) }));
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await worker?.stop();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The keys whose contents mention any of `needles`. */
async function keysHolding(...needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const [key, value] of await redisContents(redis.url)) if (needles.some((needle) => value.includes(needle) || key.includes(needle))) found.push(key);
  return found;
}

/** The event stream's entries that carry a job's data. */
async function dataEntries(): Promise<string[]> {
  const stream = (await redisContents(redis.url)).get(`bull:${queue}:events`) ?? '[]';
  return (JSON.parse(stream) as [string, string[]][]).map(([, fields]) => fields[1]!).filter((event) => event === 'completed' || event === 'progress' || event === 'failed');
}

it('no key holds the arguments, the progress or the result once the call returned', async () => {
  const text = `arg-${randomUUID()}`;
  const result = await harness.executeToolCall({ id: 's1', name: 'shout', arguments: { text } });
  expect(result.ok && result.value).toEqual({ shouted: `${text.toUpperCase()}!` });
  expect(progress.map((p) => p.update)).toContainEqual({ message: text.toUpperCase() });
  expect(await keysHolding(text, text.toUpperCase())).toEqual([]);
  expect(await dataEntries()).toEqual([]);
});

it('a call cancelled while it runs: its progress goes at once, its late answer when it comes', async () => {
  const text = `cancelled-${randomUUID()}`;
  const controller = new AbortController();
  const call = harness.executeToolCall({ id: 's2', name: 'shout', arguments: { text, holdMs: 600_000 } }, { signal: controller.signal }); // longer than every wait: only the cancel ends it
  await waitFor(async () => progress.some((p) => p.callId === 's2'), () => 'the progress report of s2 never came');
  controller.abort();
  const result = await call;
  expect(!result.ok && result.error.code).toBe('ABORTED');
  // Its progress entries of the event stream go before the call returns. The job's own hash (its
  // arguments and its last progress report) stays until the worker has stopped the body and
  // answered, which may come after the call returned (the README says so).
  const jobHash = new RegExp(`^bull:${queue}:[0-9a-f-]+\\.\\d+$`);
  expect((await keysHolding(text.toUpperCase())).filter((key) => !jobHash.test(key))).toEqual([]);
  expect(await dataEntries()).not.toContain('progress');
  // The job itself goes once the worker stopped the body and answered.
  await waitFor(
    async () => (await keysHolding(text)).length === 0 && (await dataEntries()).length === 0,
    async () => `still there: keys ${JSON.stringify(await keysHolding(text))}, stream entries ${JSON.stringify(await dataEntries())}`,
  );
});

/** Polls until `condition` holds; after 60 s fails with what `stuck` says (the test's own timeout would say nothing). */
async function waitFor(condition: () => Promise<boolean>, stuck: () => string | Promise<string>): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(await stuck());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
