import type { ToolArguments, ToolTier } from '@weir/core';

/** BullMQ's default key prefix; workers and agents on one queue must use the same. */
export const DEFAULT_PREFIX = 'bull';

/** The version of the job format; a worker refuses a job of another version instead of guessing. */
export const TOOL_JOB_VERSION = 2;

/**
 * What the agent puts on the queue for one attempt of one approved call. Everything the worker
 * needs to run the body, and nothing the model could have changed after approval.
 */
export interface ToolJob {
  readonly v: typeof TOOL_JOB_VERSION;
  readonly toolName: string;
  /** The exact arguments that cleared stage 1 (validated, rewritten, approved). */
  readonly arguments: ToolArguments;
  /** `argumentsHash(arguments)` computed by the agent; the worker checks it before the body runs. */
  readonly argumentsHash: string;
  /** The model's call id (it repeats across turns and agents: never used as a key). */
  readonly callId: string;
  /** Unique across turns, agents and processes: with `attempt`, it names the job. */
  readonly callKey: string;
  /** The run the call belongs to (`exec.run.id` on the caller's side). */
  readonly runId?: string;
  readonly parentCallKey?: string;
  /** 1 for the first run, 2 for the first retry, ... */
  readonly attempt: number;
  /** The tier the agent approved the call under. */
  readonly tier: ToolTier;
  /** Epoch milliseconds after which the caller no longer waits; `null` for no deadline. */
  readonly deadlineAt: number | null;
  /** HMAC-SHA256 (hex) of the fields above under the key agents and workers share (`signToolJob`). */
  readonly signature: string;
}

/**
 * What a worker answers, as the job's return value. A failure of the body is an answer too, so a
 * job fails in BullMQ's sense only when something around the body broke (a stall past the limit).
 * `kind: 'tool'` is a `ToolCallError` (its code stands); `kind: 'error'` is any other failure.
 */
export type ToolJobOutcome =
  | { readonly ok: true; readonly value?: unknown }
  | { readonly ok: false; readonly kind: 'tool' | 'error'; readonly code: string; readonly message: string };

/** BullMQ refuses `:` in a custom job id, so the attempt is joined with a dot. */
export function toolJobId(callKey: string, attempt: number): string {
  return `${callKey}.${attempt}`;
}

/** The Redis names this package adds beside BullMQ's own keys, all under the queue's prefix. */
export function toolJobKeys(prefix: string, queue: string) {
  const base = `${prefix}:${queue}:weir`;
  return {
    /** Set by a worker right before the body runs; its presence on a re-delivered job means "it started". */
    started: (jobId: string) => `${base}:started:${jobId}`,
    /** Set by a caller that gave up; a worker that has not started the body yet does not start it. */
    cancelled: (jobId: string) => `${base}:cancelled:${jobId}`,
    /** Pub/sub channel: each message is the id of a job whose caller gave up. */
    cancelChannel: `${base}:cancel`,
    /** BullMQ's event stream of the queue. */
    events: `${prefix}:${queue}:events`,
  };
}

/** Reads a job's data defensively: a job written by something else is refused, not run. */
export function parseToolJob(data: unknown): ToolJob | string {
  if (typeof data !== 'object' || data === null) return 'the job carries no data';
  const job = data as Partial<ToolJob>;
  if (job.v !== TOOL_JOB_VERSION) return `the job format is ${JSON.stringify(job.v)}, this worker reads ${TOOL_JOB_VERSION}`;
  if (typeof job.toolName !== 'string' || typeof job.callId !== 'string' || typeof job.callKey !== 'string') return 'the job names no tool or call';
  if (typeof job.arguments !== 'object' || job.arguments === null || Array.isArray(job.arguments)) return 'the job carries no arguments object';
  if (typeof job.argumentsHash !== 'string') return 'the job carries no arguments hash';
  if (typeof job.attempt !== 'number' || !Number.isInteger(job.attempt) || job.attempt < 1) return 'the job carries no attempt number';
  if (job.deadlineAt !== null && typeof job.deadlineAt !== 'number') return 'the job carries an invalid deadline';
  if (typeof job.runId !== 'undefined' && typeof job.runId !== 'string') return 'the job carries an invalid run id';
  if (typeof job.parentCallKey !== 'undefined' && typeof job.parentCallKey !== 'string') return 'the job carries an invalid parent call key';
  if (typeof job.tier !== 'string') return 'the job carries no tier';
  return job as ToolJob;
}
