import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { createHarness, type Harness } from '@weir/core';
import { remoteDispatch } from '@weir/dispatch-bullmq';
import { echoPlugin } from '../echo-tool.js';
import { median, printTable } from '../measure.js';
import { processCpuMs, redisCpuMs } from './process-cpu.js';
import { redisForBench } from './redis-for-bench.js';

const IN_FLIGHT = 32;


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
 * The floor weir is measured against: add a job, a worker process answers it, read the answer
 * from one shared QueueEvents reader. No weir on either side, but what a real use needs: the job
 * carries the call (tool name, call id, arguments), is removed once it settles, and the answer
 * comes back as weir's does (`{ ok, value }`, through QueueEvents). weir's job carries more (its
 * call key, arguments hash, tier, deadline): that is part of what weir is measured for.
 */
async function bareRunner(url: string, queueName: string): Promise<Runner & { close(): Promise<void> }> {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection });
  const events = new QueueEvents(queueName, { connection: new Redis(url, { maxRetriesPerRequest: null }) });
  await events.waitUntilReady();
  const pending = new Map<string, (answer: unknown) => void>();
  events.on('completed', ({ jobId, returnvalue }) => pending.get(jobId)?.(returnvalue));
  const roundTrip = async (n: number) => {
    const jobId = randomUUID();
    const done = new Promise<unknown>((resolve) => pending.set(jobId, resolve));
    await queue.add('echo', { toolName: 'echo', callId: `c${n}`, arguments: { text: `t${n}` } }, { jobId, removeOnComplete: true, removeOnFail: true });
    const answer = (await done) as { ok?: unknown };
    pending.delete(jobId);
    if (answer?.ok !== true) throw new Error('the bare worker did not answer ok');
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

// The key the bench's agents and workers sign jobs with: made per run, handed to the workers in their environment.
const jobKey = randomBytes(32).toString('base64');
const workerScript = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));
const tsxLoader = pathToFileURL(fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url))).href;

function spawnBenchWorker(kind: 'weir' | 'bare', url: string, queue: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, '--conditions=@weir/source', workerScript, kind], {
    env: { ...process.env, REDIS_URL: url, QUEUE: queue, WEIR_JOB_KEY: jobKey },
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
  /**
   * CPU time per call (ms) in the throughput rounds, by process: this one (the agent, or the bare
   * producer), the case's worker processes, Redis. Unlike wall time, it does not count the time
   * other processes held the cores, so it compares cases on a busy machine too. `undefined` where
   * the worker processes' CPU time cannot be read (no `/proc`).
   */
  readonly cpuMs: { readonly agent: number; readonly workers: number | undefined; readonly redis: number } | undefined;
}

/**
 * The scale-out bench, run in a process of its own (this file, with the same node flags and
 * loader): the other sections' modules (the peers' SDKs, OpenTelemetry, MCP) and their heap stay
 * out of the measured process, which holds the agents, the bare producer and nothing else. Prints
 * the table and weir's overhead on top of the bare round trip.
 */
export function scaleOutBench(options: { quick: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...(options.quick ? ['--quick'] : [])], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`the scale-out bench process ended with ${signal ?? `code ${code}`}`))));
  });
}

/**
 * Calls per second (batches of 500 calls, 32 in flight) and per-call latency (one call at a time) for echo
 * in process, through a bare BullMQ round trip, and through weir with one and with two worker
 * processes, all in the same run on one Redis. Cases are interleaved (call by call for latency,
 * batch by batch for throughput); each figure is a median.
 */
async function measureScaleOut(options: { quick: boolean }): Promise<Record<string, Figures>> {
  const latencyCalls = options.quick ? 50 : 300;
  const throughputCalls = options.quick ? 200 : 500;
  const rounds = options.quick ? 1 : 5;
  const redis = await redisForBench();
  const children: ChildProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    const bareWorker = await spawnBenchWorker('bare', redis.url, 'bench-bare');
    const weirWorker = await spawnBenchWorker('weir', redis.url, 'bench-weir1');
    const weirPair = [await spawnBenchWorker('weir', redis.url, 'bench-weir2'), await spawnBenchWorker('weir', redis.url, 'bench-weir2')];
    children.push(bareWorker, weirWorker, ...weirPair);
    const admin = new Redis(redis.url);
    closers.push(async () => void admin.disconnect());

    const local = createHarness();
    await local.use(echoPlugin());
    const bare = await bareRunner(redis.url, 'bench-bare');
    closers.push(() => bare.close());
    const remote = async (queue: string) => {
      const harness = createHarness();
      await harness.use(echoPlugin());
      await harness.use(remoteDispatch({ connection: redis.url, queue, signingKey: jobKey }));
      closers.push(() => harness.close());
      return harnessRunner(harness);
    };
    const cases: Record<string, Runner> = {
      'in process (weir pipeline, no queue)': harnessRunner(local),
      'bare BullMQ round trip, 1 worker process': bare,
      'weir remoteDispatch, 1 worker process': await remote('bench-weir1'),
      'weir remoteDispatch, 2 worker processes': await remote('bench-weir2'),
    };
    const workersOf: Record<string, ChildProcess[]> = {
      'in process (weir pipeline, no queue)': [],
      'bare BullMQ round trip, 1 worker process': [bareWorker],
      'weir remoteDispatch, 1 worker process': [weirWorker],
      'weir remoteDispatch, 2 worker processes': weirPair,
    };
    const workersCpuMs = (name: string) => {
      let sum = 0;
      for (const child of workersOf[name]!) {
        const used = processCpuMs(child.pid!);
        if (used === undefined) return undefined;
        sum += used;
      }
      return sum;
    };

    // Latency: one call of each case in turn, so a burst of noise on this shared machine hits all
    // cases alike. Throughput: interleaved rounds of a batch per case; the first round warms up.
    const names = Object.keys(cases);
    const latency: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    const throughput: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    const cpu: Record<string, { agent: number; workers: number | undefined; redis: number }> = Object.fromEntries(names.map((name) => [name, { agent: 0, workers: 0, redis: 0 }]));
    for (let n = -20; n < latencyCalls; n += 1) {
      for (const name of names) {
        const start = performance.now();
        await cases[name]!.one(n);
        if (n >= 0) latency[name]!.push(performance.now() - start);
      }
    }
    for (let round = 0; round <= rounds; round += 1) {
      for (const name of names) {
        const [redisBefore, workersBefore, agentBefore] = [await redisCpuMs(admin), workersCpuMs(name), process.cpuUsage()];
        const start = performance.now();
        await cases[name]!.many(throughputCalls);
        const elapsed = performance.now() - start;
        const agentUsed = process.cpuUsage(agentBefore);
        const [redisAfter, workersAfter] = [await redisCpuMs(admin), workersCpuMs(name)];
        if (round === 0) continue;
        throughput[name]!.push(throughputCalls / (elapsed / 1000));
        const sums = cpu[name]!;
        sums.agent += (agentUsed.user + agentUsed.system) / 1000;
        sums.redis += redisAfter - redisBefore;
        sums.workers = sums.workers === undefined || workersBefore === undefined || workersAfter === undefined ? undefined : sums.workers + workersAfter - workersBefore;
      }
    }
    const perCall = (ms: number) => ms / (rounds * throughputCalls);
    const figures = Object.fromEntries(
      names.map((name) => {
        const sums = cpu[name]!;
        const cpuMs = { agent: perCall(sums.agent), workers: sums.workers === undefined ? undefined : perCall(sums.workers), redis: perCall(sums.redis) };
        return [name, { latencyMs: median(latency[name]!), callsPerSecond: median(throughput[name]!), cpuMs }];
      }),
    );
    await local.close();
    return figures;
  } finally {
    for (const close of closers) await close().catch(() => undefined);
    await Promise.all(children.map(stopChild));
    await redis.stop();
  }
}

/** Prints the figures and weir's overhead on top of the bare round trip (the issue's budget: 20%). */
function printScaleOut(figures: Record<string, Figures>): void {
  const cpuText = (f: Figures) => {
    if (f.cpuMs === undefined) return '-';
    const { agent, workers, redis } = f.cpuMs;
    return `${agent.toFixed(3)} / ${workers === undefined ? '?' : workers.toFixed(3)} / ${redis.toFixed(3)}`;
  };
  const rows = Object.entries(figures).map(([name, f]) => [name, f.latencyMs.toFixed(3), Math.round(f.callsPerSecond).toLocaleString('en-US'), cpuText(f)]);
  printTable(['echo', 'latency ms (1 in flight, median)', `calls/s (${IN_FLIGHT} in flight)`, 'CPU ms per call: agent / workers / Redis'], rows);
  const bare = figures['bare BullMQ round trip, 1 worker process']!;
  const weir = figures['weir remoteDispatch, 1 worker process']!;
  const latencyOverhead = (weir.latencyMs / bare.latencyMs - 1) * 100;
  const throughputOverhead = (bare.callsPerSecond / weir.callsPerSecond - 1) * 100;
  console.log(
    `weir on top of the bare round trip (1 worker): latency +${latencyOverhead.toFixed(1)}%, throughput cost ${throughputOverhead.toFixed(1)}% ` +
      `(budget 20%: ${latencyOverhead <= 20 && throughputOverhead <= 20 ? 'within' : 'OVER'})`,
  );
  const total = (f: Figures) => (f.cpuMs?.workers === undefined ? undefined : f.cpuMs.agent + f.cpuMs.workers + f.cpuMs.redis);
  const [bareCpu, weirCpu] = [total(bare), total(weir)];
  if (bareCpu !== undefined && weirCpu !== undefined) {
    console.log(`CPU per call, all processes (1 worker): bare ${bareCpu.toFixed(3)} ms, weir ${weirCpu.toFixed(3)} ms (+${((weirCpu / bareCpu - 1) * 100).toFixed(1)}%)`);
  }
}

// Run as a script (by scaleOutBench): measure, print, and end (a connection BullMQ was handed and
// does not close must not keep the process alive).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printScaleOut(await measureScaleOut({ quick: process.argv.includes('--quick') }));
  process.exit(0);
}
