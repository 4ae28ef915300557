import { randomUUID } from 'node:crypto';
import {
  abortableSleep,
  argumentsHash,
  DEFAULT_TOOL_TIMEOUT_MS,
  definePlugin,
  ToolCallError,
  type CallContext,
  type Dispatch,
  type Plugin,
  type RegisteredTool,
  type ToolExecution,
} from '@weir/core';
import type { KeyObject } from 'node:crypto';
import { signToolJob, signingKeyOf, type SignedFields, type SigningKey } from './job-signature.js';
import type { RedisConnection } from './redis-client.js';
import { DEFAULT_PREFIX, TOOL_JOB_VERSION, toolJobId, type ToolJob, type ToolJobOutcome } from './tool-job.js';
import { ToolQueueClient } from './tool-queue-client.js';

/** How long a call waits for a worker to take its job before it is withdrawn (`NO_WORKER`). */
export const DEFAULT_PICKUP_TIMEOUT_MS = 10_000;
/** How long a call waits for a lost Redis connection to come back (`REDIS_UNAVAILABLE`). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;

/** One progress report of a remote call, as the agent's side receives it. */
export interface RemoteProgress {
  readonly callId: string;
  readonly toolName: string;
  readonly update: unknown;
}

export interface RemoteDispatchOptions {
  /** Where Redis is: a `redis://` URL or ioredis options. */
  readonly connection: RedisConnection;
  /** The BullMQ queue the workers for these tools listen on. */
  readonly queue: string;
  /**
   * The key every job is signed with (HMAC-SHA256), shared with the queue's workers
   * (`startToolWorker({ signingKey })`) and never stored in Redis: at least 32 bytes.
   */
  readonly signingKey: SigningKey;
  /** The tools sent to the queue; default: every tool. The others run in process as before. */
  readonly tools?: readonly string[];
  /** BullMQ key prefix (default `bull`). */
  readonly prefix?: string;
  /** Default 10,000 ms: a job no worker took by then is withdrawn and the call fails `NO_WORKER`. */
  readonly pickupTimeoutMs?: number;
  /** Default 2,000 ms: how long a call waits for Redis to (re)connect before `REDIS_UNAVAILABLE`. */
  readonly connectTimeoutMs?: number;
  /**
   * The harness's `defaultTimeoutMs`, when it is not the core's default: the worker stops the body
   * at the same deadline the agent stops waiting. A tool's own `timeoutMs` wins, as in process.
   */
  readonly defaultTimeoutMs?: number;
  /** Called with every progress report a worker sends (besides `exec.progress`, where the core has it). */
  readonly onProgress?: (progress: RemoteProgress) => void;
}

/**
 * A plugin whose execute tap sends each approved call of the chosen tools to a BullMQ queue and
 * waits for the worker's answer (`startToolWorker` on the other side). Stages 1, 4, 5 and 6 stay
 * here: guards, approval, output validation and the result observers behave exactly as in
 * process; only the body moves. The agent's harness still registers the tools (it needs their
 * schemas, tiers and output schemas); their bodies do not run here.
 *
 * Throws `TypeError` on invalid options. Never throws at call time: Redis unreachable, no worker
 * in time, a worker without the tool, an interrupted job: each is an error result.
 */
export function remoteDispatch(options: RemoteDispatchOptions): Plugin {
  const settings = checkOptions(options);
  const only = options.tools === undefined ? undefined : new Set(options.tools);
  return definePlugin({
    name: `dispatch-bullmq:${options.queue}`,
    async setup(ctx) {
      const client = new ToolQueueClient({
        connection: options.connection,
        queue: options.queue,
        prefix: settings.prefix,
        connectTimeoutMs: settings.connectTimeoutMs,
        pickupTimeoutMs: settings.pickupTimeoutMs,
        logger: ctx.logger,
      });
      // bullmq and ioredis are imported here, when the plugin loads, not when the package does.
      await client.open();
      ctx.onDispose(() => client.close());
      ctx.hooks.execute.tapPromise(async (_local, context) => {
        const tool = context.tool;
        if (tool === undefined || (only !== undefined && !only.has(tool.name))) return undefined;
        return remoteBody(client, tool, context, settings, options.onProgress);
      });
    },
  });
}

interface Settings {
  readonly signingKey: KeyObject;
  readonly prefix: string;
  readonly pickupTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly defaultTimeoutMs: number;
}

/**
 * The dispatcher that replaces the local body: one job per attempt, the tool's retry policy
 * applied here (so each attempt is its own job id), the call's signal cancelling the job.
 */
function remoteBody(
  client: ToolQueueClient,
  tool: RegisteredTool,
  context: CallContext,
  settings: Settings,
  onProgress: RemoteDispatchOptions['onProgress'],
): Dispatch {
  return async (args, exec) => {
    const timeoutMs = tool.timeoutMs ?? settings.defaultTimeoutMs;
    const deadlineAt = Number.isFinite(timeoutMs) ? Date.now() + timeoutMs : null;
    const keys = callKeysOf(exec);
    const hash = argumentsHash(args);
    const cancel = cancelSignalOf(exec);
    const onAbort = cancel === undefined ? exec.onAbort : undefined;
    const progress = (update: unknown) => {
      const forward = (exec as { progress?: (update: unknown) => void }).progress;
      try {
        if (typeof forward === 'function') forward(update);
        onProgress?.({ callId: exec.callId, toolName: exec.toolName, update });
      } catch (error) {
        exec.logger.warn({ err: error, callId: exec.callId }, 'a progress listener threw; the call goes on');
      }
    };
    const policy = tool.retryPolicy;
    for (let attempt = 1; ; attempt += 1) {
      countAttempt(context, attempt);
      const fields: SignedFields = {
        v: TOOL_JOB_VERSION,
        toolName: tool.name,
        arguments: args,
        argumentsHash: hash,
        callId: exec.callId,
        callKey: keys.callKey,
        ...(keys.runId === undefined ? {} : { runId: keys.runId }),
        ...(keys.parentCallKey === undefined ? {} : { parentCallKey: keys.parentCallKey }),
        attempt,
        tier: tool.tier,
        deadlineAt,
      };
      const job: ToolJob = { ...fields, signature: signToolJob(settings.signingKey, fields) };
      const outcome = await client.run(job, toolJobId(keys.callKey, attempt), { signal: cancel, onAbort, onProgress: progress });
      if (outcome.ok) return outcome.value;
      const error = outcomeError(outcome);
      const retryable = policy !== undefined && attempt <= policy.retries && outcome.kind === 'error' && (policy.shouldRetry?.(error) ?? true);
      if (!retryable) throw error;
      await abortableSleep(Math.min((policy.minTimeoutMs ?? 100) * 2 ** (attempt - 1), policy.maxTimeoutMs ?? 2_000), exec.signal);
    }
  };
}

/**
 * The call's key, unique across turns, agents and processes: the core's harness-generated
 * `exec.callKey` (one made here only for an exec that has none), and the run it belongs to.
 */
function callKeysOf(exec: ToolExecution): { callKey: string; runId: string | undefined; parentCallKey: string | undefined } {
  const given = (exec as { callKey?: unknown }).callKey;
  const callKey = typeof given === 'string' && given !== '' ? given : randomUUID();
  const run = (exec as { run?: { id?: unknown; parentCallKey?: unknown } }).run;
  const runId = typeof run?.id === 'string' && run.id !== '' ? run.id : undefined;
  const parentCallKey = typeof run?.parentCallKey === 'string' ? run.parentCallKey : undefined;
  return { callKey, runId, parentCallKey };
}

/**
 * The signal to hear the call's cancel from, or `undefined` to hear it through `exec.onAbort`. The
 * core makes a call's `exec.signal` only when it is read, and making it (an AbortController, and
 * its listener) costs more than the rest of sending the job; `exec.onAbort` tells the same
 * interruptions (the deadline, the caller's or the turn's abort) without it. A signal that exists
 * already (an execute wrapper made or spread it: a data property, not the core's getter) is heard
 * as it is, since it may abort for reasons of the wrapper's own. An exec without `onAbort` (made
 * outside the pipeline) is heard through its signal.
 */
function cancelSignalOf(exec: ToolExecution): AbortSignal | undefined {
  const own = Object.getOwnPropertyDescriptor(exec, 'signal');
  if (own !== undefined && own.get === undefined) return exec.signal;
  return typeof exec.onAbort === 'function' ? undefined : exec.signal;
}

/** The result's `attempts` counts remote runs the way it counts local ones. */
function countAttempt(context: CallContext, attempt: number): void {
  const counted = context as { attempts?: unknown };
  if (typeof counted.attempts === 'number') counted.attempts = attempt;
}

function outcomeError(outcome: Extract<ToolJobOutcome, { ok: false }>): Error {
  if (outcome.kind === 'tool') return new ToolCallError(outcome.code, outcome.message);
  return new Error(outcome.message);
}

function checkOptions(options: RemoteDispatchOptions): Settings {
  if (typeof options !== 'object' || options === null) throw new TypeError('remoteDispatch: expected { connection, queue, signingKey, tools? }.');
  if (typeof options.connection !== 'string' && (typeof options.connection !== 'object' || options.connection === null)) {
    throw new TypeError('remoteDispatch: connection must be a redis:// URL or ioredis options.');
  }
  if (typeof options.queue !== 'string' || options.queue === '' || options.queue.includes(':')) {
    throw new TypeError('remoteDispatch: queue must be a non-empty name without ":".');
  }
  if (options.tools !== undefined && (!Array.isArray(options.tools) || !options.tools.every((name) => typeof name === 'string'))) {
    throw new TypeError('remoteDispatch: tools must be an array of tool names.');
  }
  return {
    signingKey: signingKeyOf(options.signingKey, 'remoteDispatch'),
    prefix: options.prefix ?? DEFAULT_PREFIX,
    pickupTimeoutMs: positive(options.pickupTimeoutMs, DEFAULT_PICKUP_TIMEOUT_MS, 'pickupTimeoutMs'),
    connectTimeoutMs: positive(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS, 'connectTimeoutMs'),
    defaultTimeoutMs: options.defaultTimeoutMs === Infinity ? Infinity : positive(options.defaultTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS, 'defaultTimeoutMs'),
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new TypeError(`remoteDispatch: ${name} must be a positive number of milliseconds.`);
  return value;
}
