import type { Redis } from 'ioredis';
import { argumentsHash, INTERRUPTED_CALL_CONTENT, ToolCallError, type Harness, type Logger, type RegisteredTool, type Sandbox, type ToolExecution } from '@weir/core';
import type { KeyObject } from 'node:crypto';
import { verifyToolJob } from './job-signature.js';
import { RunningJob } from './running-job.js';
import { parseToolJob, toolJobId, type ToolJob, type toolJobKeys, type ToolJobOutcome } from './tool-job.js';

/** What one job run needs from the worker around it. */
export interface ToolJobRuntime {
  readonly harness: Harness;
  readonly sandbox: () => Sandbox | undefined;
  readonly redis: Redis;
  readonly keys: ReturnType<typeof toolJobKeys>;
  readonly queue: string;
  readonly workerId: string;
  readonly logger: Logger;
  /** The key the agents sign jobs with; a job not signed with it is refused. */
  readonly signingKey: KeyObject;
  /** Jobs that left marks (start, cancel) to delete once BullMQ stored their answer. */
  readonly marked: Set<string>;
  /** The jobs whose bodies run now, by job id: a caller's cancel stops the one it names. */
  readonly running: Map<string, RunningJob>;
}

/** The job as the worker sees it: its id, data and progress channel (a BullMQ `Job`, narrowed). */
export interface RunnableJob {
  readonly id?: string | undefined;
  readonly data: unknown;
  updateProgress(progress: number | object): Promise<void>;
}

/**
 * Runs the body of one job and returns the outcome the caller reads. In order: refuse a job that
 * is unsigned, not signed with the shared key (changed or forged in Redis: refused and logged as a
 * warning), malformed, past its deadline, for a tool this worker lacks, or whose arguments do not match
 * the hash the caller approved; unless the tool is read-only, record the start (atomically with
 * reading the cancel mark); then the body. A re-delivered job (its worker died) whose start was recorded runs again only for a
 * `read-only` tool or one that declares a retry policy; any other is answered as interrupted, so a
 * `write` or `dangerous` body never runs twice. Only a Redis failure rejects.
 */
export async function runToolJob(runtime: ToolJobRuntime, job: RunnableJob): Promise<ToolJobOutcome> {
  const jobId = job.id ?? '';
  const signature = (job.data as { signature?: unknown } | null)?.signature;
  if (typeof signature !== 'string' || signature === '') return forged(runtime, jobId, 'UNSIGNED_JOB', 'it is not signed');
  const data = parseToolJob(job.data);
  if (typeof data === 'string') return forged(runtime, jobId, 'INVALID_JOB', data);
  if (!verifyToolJob(runtime.signingKey, data, signature) || jobId !== toolJobId(data.callKey, data.attempt)) {
    return forged(runtime, jobId, 'JOB_SIGNATURE_INVALID', `its signature does not match: it was changed or forged after an agent sent it (${data.toolName})`);
  }
  if (data.deadlineAt !== null && Date.now() >= data.deadlineAt) {
    return refuse('TIMEOUT', `${data.toolName} did not run: its deadline passed before a worker took it.`);
  }
  const tool = runtime.harness.tools.get(data.toolName);
  if (tool === undefined) {
    return refuse('TOOL_NOT_FOUND', `the worker on queue "${runtime.queue}" has no tool "${data.toolName}", so the call did not run. Use another tool.`);
  }
  if (argumentsHash(data.arguments) !== data.argumentsHash) {
    return refuse('ARGUMENTS_MISMATCH', `${data.toolName} did not run: the arguments the worker received are not the ones that were approved.`);
  }

  // Listed before the start is recorded: a cancel that comes while that round trip is out stops it.
  const running = new RunningJob(data.deadlineAt);
  runtime.running.set(jobId, running);
  try {
    // A read-only body may run again after a crash, so it needs no start mark: no round trip before it.
    // The stricter of the two tiers counts (the agent's definition and this worker's may differ).
    if (tool.tier !== 'read-only' || data.tier !== 'read-only') {
      const refused = await recordStart(runtime, jobId, data.deadlineAt, tool.retryPolicy !== undefined);
      if (refused !== undefined) return refused(data.toolName);
      if (running.interruption === 'cancelled') return refuse('ABORTED', `${data.toolName} was cancelled before it started.`);
    }
    return await runBody(runtime, job, jobId, data, tool, running);
  } finally {
    running.finish();
    if (runtime.running.get(jobId) === running) runtime.running.delete(jobId);
  }
}

/** Runs the body with its `exec`; a stop (cancel, deadline) answers at once, whatever the body does. */
async function runBody(runtime: ToolJobRuntime, job: RunnableJob, jobId: string, data: ToolJob, tool: RegisteredTool, running: RunningJob): Promise<ToolJobOutcome> {
  let childLogger: Logger | undefined;
  const exec = {
    // Made on first read (see RunningJob): most bodies never read it.
    get signal() {
      return running.signal;
    },
    callId: data.callId,
    toolName: data.toolName,
    attempt: data.attempt,
    // Made on first use: most bodies never log, and a pino child costs more than the rest of the job here.
    get logger() {
      return (childLogger ??= runtime.logger.child({ callId: data.callId, jobId }));
    },
    sandbox: runtime.sandbox(),
    // The core's `exec.progress` contract: a report goes to the caller; a failed report is logged, never thrown.
    progress: (update: unknown) => {
      const payload = typeof update === 'number' || (typeof update === 'object' && update !== null) ? update : { value: update };
      job.updateProgress(payload as number | object).catch((error: unknown) => runtime.logger.debug({ err: error, jobId }, 'a progress report was lost'));
    },
    callKey: data.callKey,
    run: { id: data.runId ?? data.callKey, ...(data.parentCallKey === undefined ? {} : { parentCallKey: data.parentCallKey }) },
  } satisfies ToolExecution & Record<string, unknown>;

  try {
    let value: unknown = tool.execute(data.arguments, exec);
    // Only a body still running after its synchronous part can be stopped: only then a race and a timer.
    if (isThenable(value)) value = await running.race(value);
    return crossable(data.toolName, value);
  } catch (error) {
    if (running.interruption === 'cancelled') {
      runtime.marked.add(jobId); // the caller's cancel mark, to delete
      return refuse('ABORTED', `${data.toolName} was cancelled before it finished.`);
    }
    if (running.interruption === 'deadline') return refuse('TIMEOUT', `${data.toolName} was stopped at its deadline.`);
    if (error instanceof ToolCallError) return refuse(error.code, error.message);
    return { ok: false, kind: 'error', code: 'EXECUTION_FAILED', message: describe(error) };
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Records the start (atomically with reading the cancel mark). Returns `undefined` to run the
 * body, or the refusal: cancelled before it started, or a re-delivered job whose start was
 * recorded by a worker that stopped (interrupted, unless the tool declares it may be retried).
 * The mark lives until the caller's deadline plus a minute: after that the job is refused anyway.
 */
async function recordStart(
  runtime: ToolJobRuntime,
  jobId: string,
  deadlineAt: number | null,
  retryable: boolean,
): Promise<((toolName: string) => ToolJobOutcome) | undefined> {
  const ttlMs = deadlineAt === null ? 86_400_000 : Math.max(deadlineAt - Date.now(), 0) + 60_000;
  const replies = await runtime.redis.multi().set(runtime.keys.started(jobId), runtime.workerId, 'PX', ttlMs, 'NX').get(runtime.keys.cancelled(jobId)).exec();
  if (replies === null || replies.some(([error]) => error !== null)) throw new Error('could not record the start of the job in Redis');
  runtime.marked.add(jobId);
  if (replies[1]?.[1] !== null) return (toolName) => refuse('ABORTED', `${toolName} was cancelled before it started.`);
  if (replies[0]?.[1] === 'OK') return undefined;
  runtime.logger.warn({ jobId, rerun: retryable }, 'a job whose start was recorded came back (its worker stopped)');
  return retryable ? undefined : () => refuse('INTERRUPTED', INTERRUPTED_CALL_CONTENT);
}

/** A job no agent of this queue sent as it is: not run, answered, and reported in the worker's log. */
function forged(runtime: ToolJobRuntime, jobId: string, code: string, why: string): ToolJobOutcome {
  runtime.logger.warn({ jobId, code, queue: runtime.queue }, `refused a job: ${why}; anyone who can write to this Redis may be trying to run tools`);
  return refuse(code, `the worker on queue "${runtime.queue}" refused the job, so nothing ran: ${why}.`);
}

function refuse(code: string, message: string): ToolJobOutcome {
  return { ok: false, kind: 'tool', code, message };
}

/** The value crosses the queue as JSON: one that cannot is a failure here, not a lost job there. */
function crossable(toolName: string, value: unknown): ToolJobOutcome {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return { ok: true, value };
  try {
    JSON.stringify(value);
  } catch (error) {
    return refuse('INVALID_OUTPUT', `${toolName} returned a value that cannot be sent back as JSON (${describe(error)}).`);
  }
  return value === undefined ? { ok: true } : { ok: true, value };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
