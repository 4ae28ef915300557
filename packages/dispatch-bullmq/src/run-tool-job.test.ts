import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { argumentsHash, createHarness, defineTool, definePlugin, INTERRUPTED_CALL_CONTENT, type Harness } from '@weir/core';
import { startRedis, type TestRedis } from '../test/fixtures/redis-server.js';
import { TEST_SIGNING_KEY } from '../test/fixtures/signing-key.js';
import { signingKeyOf, signToolJob } from './job-signature.js';
import { runToolJob, type ToolJobRuntime } from './run-tool-job.js';
import { TOOL_JOB_VERSION, toolJobKeys, type ToolJob } from './tool-job.js';

// Scenarios cross processes and Redis: on a busy machine one can take several seconds.
vi.setConfig({ testTimeout: 30_000 });

let redis: TestRedis;
let client: Redis;
let harness: Harness;
let runtime: ToolJobRuntime;
const runs: string[] = [];
const keys = toolJobKeys('bull', 'unit');
const signingKey = signingKeyOf(TEST_SIGNING_KEY, 'test');
const warnings: { fields: unknown; message: unknown }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  const { Redis: RedisClient } = await import('ioredis');
  client = new RedisClient(redis.url);
  harness = createHarness();
  await harness.use(
    definePlugin({
      name: 'unit-tools',
      setup(ctx) {
        for (const tier of ['read-only', 'write', 'dangerous'] as const) {
          ctx.tools.register(
            defineTool({
              name: `note_${tier.replace('-', '_')}`,
              description: 'Notes that it ran.',
              tier,
              parameters: { type: 'object', properties: { n: { type: 'number' } } },
              execute: (args, exec) => {
                runs.push(`${exec.toolName}:${String(args.n)}`);
                return { n: args.n, attempt: exec.attempt };
              },
            }),
          );
        }
        ctx.tools.register(
          defineTool({ name: 'retried_write', description: 'A write that declares retries.', tier: 'write', retry: 2, parameters: { type: 'object', properties: {} }, execute: () => 'ran' }),
        );
        ctx.tools.register(defineTool({ name: 'big', description: 'Returns a BigInt.', tier: 'read-only', parameters: { type: 'object', properties: {} }, execute: () => 1n }));
      },
    }),
  );
  const logger = { ...harness.logger, warn: (fields: unknown, message?: unknown) => void warnings.push({ fields, message }) };
  runtime = { harness, sandbox: () => undefined, redis: client, keys, queue: 'unit', workerId: 'w1', logger, signingKey, marked: new Set(), running: new Map() };
}, 30_000);

afterAll(async () => {
  client?.disconnect();
  await harness?.close();
  await redis?.stop();
});

let counter = 0;
function job(overrides: Partial<ToolJob> = {}): { id: string; data: ToolJob; updateProgress: () => Promise<void> } {
  counter += 1;
  const args = overrides.arguments ?? { n: counter };
  const toolName = overrides.toolName ?? 'note_write';
  // The agent's tier is the tool's own, as when both sides load the same plugins.
  const tier = toolName === 'note_read_only' || toolName === 'big' ? 'read-only' : toolName === 'note_dangerous' ? 'dangerous' : 'write';
  const fields = {
    v: TOOL_JOB_VERSION,
    toolName,
    arguments: args,
    argumentsHash: argumentsHash(args),
    callId: 'call_1',
    callKey: `key-${counter}`,
    attempt: 1,
    tier,
    deadlineAt: Date.now() + 10_000,
    ...overrides,
  } satisfies Partial<ToolJob>;
  const data: ToolJob = { signature: signToolJob(signingKey, fields), ...fields };
  return { id: `key-${counter}.1`, data, updateProgress: async () => undefined };
}

describe('runToolJob refuses before the body runs', () => {
  it('a job of another format', async () => {
    const outcome = await runToolJob(runtime, { id: 'x', data: { v: 99, signature: 'ab' }, updateProgress: async () => undefined });
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_JOB' });
  });

  it('an unsigned job, reported in the log', async () => {
    const unsigned = job();
    const { signature: _, ...data } = unsigned.data;
    const before = runs.length;
    expect(await runToolJob(runtime, { ...unsigned, data })).toMatchObject({ ok: false, code: 'UNSIGNED_JOB' });
    expect(runs.length).toBe(before);
    expect(warnings.at(-1)?.fields).toMatchObject({ jobId: unsigned.id, code: 'UNSIGNED_JOB' });
  });

  it('a job changed after it was signed (its tier, its deadline, its id), or signed with another key', async () => {
    const before = runs.length;
    const signed = job({ tier: 'write' });
    for (const changed of [{ tier: 'read-only' }, { deadlineAt: Date.now() + 3_600_000 }, { callKey: 'other-key' }]) {
      expect(await runToolJob(runtime, { ...signed, data: { ...signed.data, ...changed } })).toMatchObject({ ok: false, code: 'JOB_SIGNATURE_INVALID' });
    }
    expect(await runToolJob(runtime, { ...signed, id: 'key-elsewhere.1' })).toMatchObject({ ok: false, code: 'JOB_SIGNATURE_INVALID' });
    const otherKey = signingKeyOf('another-key-of-at-least-32-bytes-long', 'test');
    const { signature: _, ...fields } = signed.data;
    expect(await runToolJob(runtime, { ...signed, data: { ...fields, signature: signToolJob(otherKey, fields) } })).toMatchObject({ ok: false, code: 'JOB_SIGNATURE_INVALID' });
    expect(runs.length).toBe(before);
    expect(warnings.at(-1)?.fields).toMatchObject({ jobId: signed.id, code: 'JOB_SIGNATURE_INVALID' });
  });

  it('arguments that do not match the approved hash', async () => {
    const before = runs.length;
    const outcome = await runToolJob(runtime, job({ arguments: { n: 2 }, argumentsHash: argumentsHash({ n: 1 }) }));
    expect(outcome).toMatchObject({ ok: false, code: 'ARGUMENTS_MISMATCH' });
    expect(runs.length).toBe(before);
  });

  it('a job taken after its deadline', async () => {
    const outcome = await runToolJob(runtime, job({ deadlineAt: Date.now() - 1 }));
    expect(outcome).toMatchObject({ ok: false, code: 'TIMEOUT' });
  });

  it('a tool this worker does not have', async () => {
    const outcome = await runToolJob(runtime, job({ toolName: 'nope' }));
    expect(outcome).toMatchObject({ ok: false, code: 'TOOL_NOT_FOUND' });
  });

  it('a job whose caller cancels it while its start is being recorded', async () => {
    const cancelled = job();
    const answer = runToolJob(runtime, cancelled);
    // The worker's cancel listener finds the job listed before the start mark's round trip is back.
    runtime.running.get(cancelled.id)?.stop('cancelled');
    expect(await answer).toMatchObject({ ok: false, code: 'ABORTED' });
    expect(runs).not.toContain(`note_write:${String(cancelled.data.arguments.n)}`);
    expect(runtime.running.has(cancelled.id)).toBe(false);
  });

  it('a job its caller cancelled before it started', async () => {
    const cancelled = job();
    await client.set(keys.cancelled(cancelled.id), '1');
    const before = runs.length;
    expect(await runToolJob(runtime, cancelled)).toMatchObject({ ok: false, code: 'ABORTED' });
    expect(runs.length).toBe(before);
  });
});

describe('a re-delivered job whose start was recorded', () => {
  for (const tier of ['write', 'dangerous'] as const) {
    it(`${tier}: answered as interrupted, the body does not run again`, async () => {
      const again = job({ toolName: `note_${tier}` });
      expect(await runToolJob(runtime, again)).toEqual({ ok: true, value: { n: again.data.arguments.n, attempt: 1 } });
      const before = runs.length;
      expect(await runToolJob(runtime, again)).toEqual({ ok: false, kind: 'tool', code: 'INTERRUPTED', message: INTERRUPTED_CALL_CONTENT });
      expect(runs.length).toBe(before);
    });
  }

  it('read-only, when the agent also says read-only: runs again', async () => {
    const again = job({ toolName: 'note_read_only' });
    await runToolJob(runtime, again);
    const before = runs.length;
    expect(await runToolJob(runtime, again)).toMatchObject({ ok: true });
    expect(runs.length).toBe(before + 1);
  });

  it('read-only on the worker but write for the agent: the stricter tier counts, interrupted', async () => {
    const again = job({ toolName: 'note_read_only', tier: 'write' });
    await runToolJob(runtime, again);
    expect(await runToolJob(runtime, again)).toMatchObject({ ok: false, code: 'INTERRUPTED' });
  });

  it('a write that declares a retry policy: runs again', async () => {
    const again = job({ toolName: 'retried_write' });
    await runToolJob(runtime, again);
    expect(await runToolJob(runtime, again)).toEqual({ ok: true, value: 'ran' });
  });
});

it('a value that cannot cross as JSON is INVALID_OUTPUT on the worker', async () => {
  expect(await runToolJob(runtime, job({ toolName: 'big' }))).toMatchObject({ ok: false, code: 'INVALID_OUTPUT' });
});

it('records the start of a write, with an expiry, before the body runs; a read-only body needs no mark', async () => {
  const recorded = job({ toolName: 'note_write' });
  await runToolJob(runtime, recorded);
  expect(await client.get(keys.started(recorded.id))).toBe('w1');
  expect(runtime.marked.has(recorded.id)).toBe(true);
  const read = job({ toolName: 'note_read_only' });
  await runToolJob(runtime, read);
  expect(await client.exists(keys.started(read.id))).toBe(0);
  expect(runtime.marked.has(read.id)).toBe(false);
  const ttl = await client.pttl(keys.started(recorded.id));
  expect(ttl).toBeGreaterThan(60_000);
  expect(ttl).toBeLessThanOrEqual(70_000);
});
