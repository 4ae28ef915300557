import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { createHarness, definePlugin, defineTool, type Harness } from '@weir/core';
import { remoteDispatch } from '@weir/dispatch-bullmq';
import { median, printTable } from '../measure.js';
import { redisForBench } from './redis-for-bench.js';

const IN_FLIGHT = 32;

const echoTool = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  tier: 'read-only',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }) => text,
});
const echoPlugin = definePlugin({ name: 'echo', setup: (ctx) => void ctx.tools.register(echoTool) });

/** One way of running `echo` calls: one call at a time, or many at once. */
interface Runner {
  one(n: number): Promise<void>;
  many(count: number): Promise<void>;
}

function harnessRunner(harness: Harness): Runner {
  return {
    async one(n) {
      const result = await harness.executeToolCall({ id: `c${n}`, name: 'echo', arguments: { text: `t${n}` } });
      if (!result.ok) throw new Error(result.content);
    },
    async many(count) {
      const calls = Array.from({ length: count }, (_, n) => ({ id: `c${n}`, name: 'echo', arguments: { text: `t${n}` } }));
      const results = await harness.executeToolCalls(calls, { concurrency: IN_FLIGHT });
      const failed = results.find((r) => !r.ok);
      if (failed) throw new Error(failed.content);
    },
  };
}

/**
 * The floor weir is measured against: add a job, a worker process returns its data, read the
 * answer from one shared QueueEvents reader. No weir on either side.
 */
async function bareRunner(url: string, queueName: string): Promise<Runner & { close(): Promise<void> }> {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection });
  const events = new QueueEvents(queueName, { connection: new Redis(url, { maxRetriesPerRequest: null }) });
  await events.waitUntilReady();
  const pending = new Map<string, () => void>();
  events.on('completed', ({ jobId }) => pending.get(jobId)?.());
  const roundTrip = async (n: number) => {
    const jobId = randomUUID();
    const done = new Promise<void>((resolve) => pending.set(jobId, resolve));
    await queue.add('echo', { text: `t${n}` }, { jobId, removeOnComplete: true, removeOnFail: true });
    await done;
    pending.delete(jobId);
  };
  return {
    one: roundTrip,
    async many(count) {
      let next = 0;
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        while (next < count) await roundTrip(next++);
      }));
    },
    async close() {
      await events.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

const workerScript = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));
const tsxLoader = pathToFileURL(fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url))).href;

function spawnBenchWorker(kind: 'weir' | 'bare', url: string, queue: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, '--conditions=@weir/source', workerScript, kind], {
    env: { ...process.env, REDIS_URL: url, QUEUE: queue },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Figures {
  readonly latencyMs: number;
  readonly callsPerSecond: number;
}

/**
 * Calls per second (batches of 500 calls, 32 in flight) and per-call latency (one call at a time) for echo
 * in process, through a bare BullMQ round trip, and through weir with one and with two worker
 * processes, all in the same run on one Redis. Cases are interleaved (call by call for latency,
 * batch by batch for throughput); each figure is a median.
 */
export async function scaleOutBench(options: { quick: boolean }): Promise<Record<string, Figures>> {
  const latencyCalls = options.quick ? 50 : 300;
  const throughputCalls = options.quick ? 200 : 500;
  const rounds = options.quick ? 1 : 5;
  const redis = await redisForBench();
  const children: ChildProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    children.push(await spawnBenchWorker('bare', redis.url, 'bench-bare'));
    children.push(await spawnBenchWorker('weir', redis.url, 'bench-weir1'));
    children.push(await spawnBenchWorker('weir', redis.url, 'bench-weir2'), await spawnBenchWorker('weir', redis.url, 'bench-weir2'));

    const local = createHarness();
    await local.use(echoPlugin);
    const bare = await bareRunner(redis.url, 'bench-bare');
    closers.push(() => bare.close());
    const remote = async (queue: string) => {
      const harness = createHarness();
      await harness.use(echoPlugin);
      await harness.use(remoteDispatch({ connection: redis.url, queue }));
      closers.push(() => harness.close());
      return harnessRunner(harness);
    };
    const cases: Record<string, Runner> = {
      'in process (weir pipeline, no queue)': harnessRunner(local),
      'bare BullMQ round trip, 1 worker process': bare,
      'weir remoteDispatch, 1 worker process': await remote('bench-weir1'),
      'weir remoteDispatch, 2 worker processes': await remote('bench-weir2'),
    };

    // Latency: one call of each case in turn, so a burst of noise on this shared machine hits all
    // cases alike. Throughput: interleaved rounds of a batch per case; the first round warms up.
    const names = Object.keys(cases);
    const latency: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    const throughput: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let n = -20; n < latencyCalls; n += 1) {
      for (const name of names) {
        const start = performance.now();
        await cases[name]!.one(n);
        if (n >= 0) latency[name]!.push(performance.now() - start);
      }
    }
    for (let round = 0; round <= rounds; round += 1) {
      for (const name of names) {
        const start = performance.now();
        await cases[name]!.many(throughputCalls);
        if (round > 0) throughput[name]!.push(throughputCalls / ((performance.now() - start) / 1000));
      }
    }
    const figures = Object.fromEntries(Object.keys(cases).map((name) => [name, { latencyMs: median(latency[name]!), callsPerSecond: median(throughput[name]!) }]));
    await local.close();
    return figures;
  } finally {
    for (const close of closers) await close().catch(() => undefined);
    await Promise.all(children.map(stopChild));
    await redis.stop();
  }
}

/** Prints the figures and weir's overhead on top of the bare round trip (the budget: 20%). */
export function printScaleOut(figures: Record<string, Figures>): void {
  const rows = Object.entries(figures).map(([name, f]) => [name, f.latencyMs.toFixed(3), Math.round(f.callsPerSecond).toLocaleString('en-US')]);
  printTable(['echo', 'latency ms (1 in flight, median)', `calls/s (${IN_FLIGHT} in flight)`], rows);
  const bare = figures['bare BullMQ round trip, 1 worker process']!;
  const weir = figures['weir remoteDispatch, 1 worker process']!;
  const latencyOverhead = (weir.latencyMs / bare.latencyMs - 1) * 100;
  const throughputOverhead = (bare.callsPerSecond / weir.callsPerSecond - 1) * 100;
  console.log(
    `weir on top of the bare round trip (1 worker): latency +${latencyOverhead.toFixed(1)}%, throughput cost ${throughputOverhead.toFixed(1)}% ` +
      `(budget 20%: ${latencyOverhead <= 20 && throughputOverhead <= 20 ? 'within' : 'OVER'})`,
  );
}
