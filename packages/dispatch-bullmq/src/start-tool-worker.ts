import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createHarness, definePlugin, type Harness, type Logger, type Plugin, type Sandbox } from '@weir/core';
import { signingKeyOf, type SigningKey } from './job-signature.js';
import { openRedis, type RedisConnection } from './redis-client.js';
import { runToolJob, type ToolJobRuntime } from './run-tool-job.js';
import { DEFAULT_PREFIX, toolJobKeys, type ToolJobOutcome } from './tool-job.js';

export interface ToolWorkerOptions {
  /** Where Redis is: a `redis://` URL or ioredis options. */
  readonly connection: RedisConnection;
  /** The BullMQ queue to take jobs from (the agent's `remoteDispatch({ queue })`). */
  readonly queue: string;
  /**
   * The key the agents of this queue sign their jobs with (`remoteDispatch({ signingKey })`), at
   * least 32 bytes, kept outside Redis. A job not signed with it is refused and logged, never run.
   */
  readonly signingKey: SigningKey;
  /** The tool plugins whose bodies run here: the same ones the agent loads. */
  readonly plugins: readonly Plugin[];
  /** Jobs run at once in this process (default 8, the core's batch concurrency). */
  readonly concurrency?: number;
  /** BullMQ key prefix (default `bull`). */
  readonly prefix?: string;
  /**
   * How long a job's lock lasts without renewal (BullMQ `lockDuration`, default 30,000 ms). A worker
   * that dies holds its jobs this long; then another worker's stalled check takes them back.
   */
  readonly lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (BullMQ `stalledInterval`, default 30,000 ms). */
  readonly stalledIntervalMs?: number;
  /** Times a job may stall before it fails (BullMQ `maxStalledCount`, default 1). */
  readonly maxStalledCount?: number;
  readonly logger?: Logger;
}

/** A running tool worker. */
export interface ToolWorker {
  /** The worker's own harness, with the tool plugins loaded. */
  readonly harness: Harness;
  /** Names this worker in logs and in the start marks it writes. */
  readonly id: string;
  /** Stops taking jobs, lets running ones finish, closes the connections and the harness. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a worker: loads `plugins` into a harness of its own and runs the bodies of the jobs the
 * agents send (stage 3 only: the agent already ran the guards and approval, and validates the
 * output). Progress reports cross back to the caller; a caller's abort or deadline aborts the
 * body's `exec.signal`. bullmq and ioredis are imported here, not when the package is imported.
 * Resolves once the worker listens. Throws what a plugin's setup throws, or `TypeError` on bad
 * options.
 */
export async function startToolWorker(options: ToolWorkerOptions): Promise<ToolWorker> {
  checkOptions(options);
  const signingKey = signingKeyOf(options.signingKey, 'startToolWorker');
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const keys = toolJobKeys(prefix, options.queue);
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const harness = createHarness(options.logger === undefined ? {} : { logger: options.logger });
  let sandbox: () => Sandbox | undefined = () => undefined;
  try {
    for (const plugin of options.plugins) await harness.use(plugin);
    // The tools read the sandbox through exec.sandbox; the worker hands them the one its plugins provided.
    await harness.use(
      definePlugin({
        name: 'dispatch-bullmq-worker',
        setup(ctx) {
          sandbox = () => ctx.sandbox.current;
        },
      }),
    );
  } catch (error) {
    await harness.close();
    throw error;
  }

  const { Worker } = await import('bullmq');
  const redis = await openRedis(options.connection, { maxRetriesPerRequest: null });
  const subscriber = await openRedis(options.connection, { maxRetriesPerRequest: null });
  const blocking = await openRedis(options.connection, { maxRetriesPerRequest: null });
  const logger = harness.logger.child({ worker: id, queue: options.queue });
  for (const client of [redis, subscriber, blocking]) client.on('error', (error) => logger.debug({ err: error }, 'redis connection error (ioredis reconnects)'));
  const runtime: ToolJobRuntime = { harness, sandbox: () => sandbox(), redis, keys, queue: options.queue, workerId: id, logger, signingKey, marked: new Set(), running: new Map() };

  // The processor takes no abort signal: BullMQ would make an AbortController for every job. A
  // caller's cancel reaches the body through runtime.running instead (below).
  const worker = new Worker<unknown, ToolJobOutcome>(options.queue, (job) => runToolJob(runtime, job), {
    connection: blocking,
    prefix,
    concurrency: options.concurrency ?? 8,
    ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    ...(options.maxStalledCount === undefined ? {} : { maxStalledCount: options.maxStalledCount }),
  });
  worker.on('error', (error) => logger.warn({ err: error }, 'bullmq worker error'));
  // The marks go once the answer is stored (not when the body returns): a worker that dies between
  // the two leaves its start mark, and the job, re-delivered, is answered as interrupted.
  const forget = (jobId: string | undefined) => {
    if (jobId === undefined || !runtime.marked.delete(jobId)) return;
    redis.del(keys.started(jobId), keys.cancelled(jobId)).catch(() => undefined);
  };
  worker.on('completed', (job) => forget(job.id));
  worker.on('failed', (job) => forget(job?.id));

  subscriber.on('message', (channel, jobId) => {
    if (channel === keys.cancelChannel) runtime.running.get(jobId)?.stop('cancelled');
  });
  await subscriber.subscribe(keys.cancelChannel);
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    harness,
    id,
    close() {
      closing ??= (async () => {
        await worker.close().catch((error: unknown) => logger.warn({ err: error }, 'the worker did not close cleanly'));
        subscriber.disconnect();
        await redis.quit().catch(() => redis.disconnect());
        blocking.disconnect();
        await harness.close();
      })();
      return closing;
    },
  };
}

function checkOptions(options: ToolWorkerOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('startToolWorker: expected { connection, queue, signingKey, plugins, concurrency? }.');
  if (typeof options.connection !== 'string' && (typeof options.connection !== 'object' || options.connection === null)) {
    throw new TypeError('startToolWorker: connection must be a redis:// URL or ioredis options.');
  }
  if (typeof options.queue !== 'string' || options.queue === '' || options.queue.includes(':')) {
    throw new TypeError('startToolWorker: queue must be a non-empty name without ":".');
  }
  if (!Array.isArray(options.plugins)) throw new TypeError('startToolWorker: plugins must be an array of plugins.');
  const counts: [string, unknown][] = [
    ['concurrency', options.concurrency],
    ['lockDurationMs', options.lockDurationMs],
    ['stalledIntervalMs', options.stalledIntervalMs],
  ];
  for (const [name, value] of counts) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) throw new TypeError(`startToolWorker: ${name} must be a positive integer.`);
  }
  if (options.maxStalledCount !== undefined && (!Number.isInteger(options.maxStalledCount) || options.maxStalledCount < 0)) {
    throw new TypeError('startToolWorker: maxStalledCount must be an integer >= 0.');
  }
}
