import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { INTERRUPTED_CALL_CONTENT, ToolCallError, type Logger } from '@weir/core';
import { describeConnection, openRedis, whenReady, type RedisConnection } from './redis-client.js';
import { GAVE_UP, PendingCall } from './pending-call.js';
import { toolJobKeys, type ToolJob, type ToolJobOutcome } from './tool-job.js';

export interface ToolQueueClientOptions {
  readonly connection: RedisConnection;
  readonly queue: string;
  readonly prefix: string;
  readonly connectTimeoutMs: number;
  readonly pickupTimeoutMs: number;
  readonly logger: Logger;
}

export interface RunJobOptions {
  /** When it aborts, the job is cancelled. */
  readonly signal: AbortSignal | undefined;
  /** Heard instead of `signal` when that is `undefined` (the core's `exec.onAbort`). */
  readonly onAbort: ((listener: (reason: unknown) => void) => () => void) | undefined;
  readonly onProgress: (update: unknown) => void;
}

interface Connected {
  readonly producer: Redis;
  readonly queue: Queue;
  listening: Promise<QueueEvents> | undefined;
  /** The connection the events reader was given (BullMQ does not close a connection it was handed). */
  reader: Redis | undefined;
}

/**
 * The agent's side of the queue: adds one job per attempt and waits for its answer. One
 * `QueueEvents` reader serves every call of the plugin (not one listener set per job); it starts
 * at the stream's last entry, read before the first job is added, so no answer can slip by
 * between "add" and "listen". Never throws into the pipeline anything but a `ToolCallError`.
 */
export class ToolQueueClient {
  readonly #options: ToolQueueClientOptions;
  readonly #keys: ReturnType<typeof toolJobKeys>;
  readonly #pending = new Map<string, PendingCall>();
  #connected: Promise<Connected> | undefined;
  /** Set once the events reader listens: a call then goes out without a wait of any kind. */
  #live: Connected | undefined;
  /** One timer for every call's pickup deadline (armed for the earliest), not one per call. */
  #pickupTimer: ReturnType<typeof setTimeout> | undefined;
  #pickupAt = Infinity;
  readonly #checkPickups = () => this.#withdrawLate();
  readonly #onCancel = (call: PendingCall) => void this.#cancel(call);
  /**
   * Jobs whose caller stopped waiting before their answer came (aborted, withdrawn, closed), by
   * id, with the time after which nothing of them is expected: their late progress and answer
   * entries are deleted from the event stream as they arrive.
   */
  readonly #abandoned = new Map<string, number>();
  #closed = false;

  constructor(options: ToolQueueClientOptions) {
    this.#options = options;
    this.#keys = toolJobKeys(options.prefix, options.queue);
  }

  /** Imports bullmq and ioredis and creates the producer; nothing waits for Redis here. */
  async open(): Promise<void> {
    this.#connected ??= this.#create();
    await this.#connected;
  }

  async #create(): Promise<Connected> {
    const { Queue } = await import('bullmq');
    // Fail fast while Redis is away: no offline queue, one try per command. A call waits at most
    // connectTimeoutMs for a reconnection (whenReady), then answers REDIS_UNAVAILABLE.
    const producer = await openRedis(this.#options.connection, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    producer.on('error', (error) => this.#options.logger.debug({ err: error }, 'redis connection error (ioredis reconnects)'));
    // Which Redis process we talk to: a new run_id after a reconnection means Redis restarted.
    let runId: string | undefined;
    producer.on('ready', () => {
      void readRunId(producer).then((id) => {
        if (runId !== undefined && id !== undefined && id !== runId) void this.#checkPendingAfterRestart();
        runId = id ?? runId;
      });
    });
    const queue = new Queue(this.#options.queue, { connection: producer, prefix: this.#options.prefix });
    queue.on('error', (error) => this.#options.logger.debug({ err: error }, 'bullmq queue error'));
    return { producer, queue, listening: undefined, reader: undefined };
  }

  /**
   * Runs one job: resolves with the worker's answer, rejects with a `ToolCallError` (Redis away,
   * no worker, or `ABORTED` once the signal aborted: the job is then cancelled).
   * Once connected and listening, a call is one `add` and one map entry: no timer, no closure.
   */
  run(job: ToolJob, jobId: string, options: RunJobOptions): Promise<ToolJobOutcome> {
    const live = this.#live;
    if (live !== undefined && !this.#closed && live.producer.status === 'ready') return this.#send(live, job, jobId, options);
    return this.#connectThenSend(job, jobId, options);
  }

  async #connectThenSend(job: ToolJob, jobId: string, options: RunJobOptions): Promise<ToolJobOutcome> {
    if (this.#closed) throw new ToolCallError('NOT_EXECUTED', `${job.toolName} was not sent: the dispatcher for queue "${this.#options.queue}" is closed.`);
    await this.open();
    const connected = await this.#connected!;
    if (!(await whenReady(connected.producer, this.#options.connectTimeoutMs))) throw this.#unavailable(job, undefined);
    try {
      await this.#listen(connected);
    } catch (error) {
      throw this.#unavailable(job, error);
    }
    if (this.#closed) throw new ToolCallError('NOT_EXECUTED', `${job.toolName} was not sent: the dispatcher for queue "${this.#options.queue}" is closed.`);
    this.#live = connected;
    return this.#send(connected, job, jobId, options);
  }

  async #send(connected: Connected, job: ToolJob, jobId: string, options: RunJobOptions): Promise<ToolJobOutcome> {
    const { signal } = options;
    const call = new PendingCall(jobId, job, options.onProgress, this.#onCancel, this.#options.pickupTimeoutMs);
    let unlisten: (() => void) | undefined;
    if (signal !== undefined) {
      if (signal.aborted) call.giveUp();
      else signal.addEventListener('abort', call, { once: true });
    } else if (options.onAbort !== undefined) {
      unlisten = options.onAbort(() => call.giveUp()); // told at once if the call was interrupted already
    }
    try {
      if (call.gaveUp) throw this.#aborted(job, signal);
      this.#pending.set(jobId, call);
      if (call.withdrawAt < this.#pickupAt) this.#armPickup(call.withdrawAt);
      call.sent = true;
      try {
        await connected.queue.add(job.toolName, job, { jobId, removeOnComplete: true, removeOnFail: true });
      } catch (error) {
        throw this.#unavailable(job, error);
      }
      const outcome = await call.answer;
      // Unlisted before the round trip below: an entry that comes during it (a given-up call's late
      // answer) is then an abandoned job's, deleted as it arrives, not kept on a call already dropped.
      this.#release(jobId, call, job.deadlineAt);
      await this.#dropEvents(connected, call.eventIds);
      // The core settled the call already when its own interruption came; a wrapper's signal is told here.
      if (outcome === GAVE_UP) throw this.#aborted(job, signal);
      return outcome;
    } finally {
      signal?.removeEventListener('abort', call);
      unlisten?.();
      this.#release(jobId, call, job.deadlineAt);
    }
  }

  /**
   * Deletes a call's entries (progress, answer) from the queue's event stream before the call
   * returns: BullMQ keeps the stream (up to about 10,000 entries), and with them the results. Other
   * readers of the stream (other agents) have no use for another agent's entries. A failure is
   * logged, never thrown: the call's answer stands.
   */
  async #dropEvents(connected: Connected, ids: readonly string[] | undefined): Promise<void> {
    if (ids === undefined || ids.length === 0) return;
    try {
      await connected.producer.xdel(this.#keys.events, ...ids);
    } catch (error) {
      this.#options.logger.warn({ err: error, count: ids.length }, 'could not delete a call\'s entries from the queue\'s event stream; they stay until BullMQ trims it');
    }
  }

  /** Stops listing a call; one whose answer has not come is abandoned, so its late entries are deleted as they come. */
  #release(jobId: string, call: PendingCall, deadlineAt: number | null): void {
    if (this.#pending.get(jobId) !== call) return;
    this.#pending.delete(jobId);
    if (call.sent && !call.answered) this.#abandon(jobId, deadlineAt);
  }

  /** Remembers a job whose answer will come after its caller left, to delete its entries when they come. */
  #abandon(jobId: string, deadlineAt: number | null): void {
    const now = Date.now();
    if (this.#abandoned.size >= ABANDONED_SWEEP_AT) for (const [id, until] of this.#abandoned) if (until <= now) this.#abandoned.delete(id);
    this.#abandoned.set(jobId, (deadlineAt ?? now + ABANDONED_MAX_MS) + 60_000);
  }

  /** An entry of this queue's stream that carries a job's data: kept with its call, or deleted now when the call was abandoned. */
  #claimEntry(jobId: string, entryId: string, last: boolean): PendingCall | undefined {
    const pending = this.#pending.get(jobId);
    if (pending !== undefined) {
      (pending.eventIds ??= []).push(entryId);
      if (last) pending.answered = true;
      return pending;
    }
    if (!this.#abandoned.has(jobId)) return undefined; // another agent's job: its agent deletes it
    if (last) this.#abandoned.delete(jobId);
    const connected = this.#live;
    if (connected !== undefined) void this.#dropEvents(connected, [entryId]);
    return undefined;
  }

  #aborted(job: ToolJob, signal: AbortSignal | undefined): ToolCallError {
    return new ToolCallError('ABORTED', `${job.toolName} was cancelled before it finished.`, { cause: signal?.reason });
  }

  /** Stops listening and closes the connections. Calls still out are answered as interrupted. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#pickupTimer);
    this.#pickupAt = Infinity;
    const connected = await this.#connected?.catch(() => undefined);
    if (!connected) return;
    for (const [, pending] of this.#pending) {
      pending.settle({ ok: false, kind: 'tool', code: 'INTERRUPTED', message: `${INTERRUPTED_CALL_CONTENT} (the dispatcher closed while the call was out)` });
    }
    const events = await connected.listening?.catch(() => undefined);
    await events?.close().catch(() => undefined);
    connected.reader?.disconnect();
    await connected.queue.close().catch(() => undefined);
    connected.producer.disconnect();
  }

  #listen(connected: Connected): Promise<QueueEvents> {
    connected.listening ??= this.#startListening(connected).catch((error: unknown) => {
      connected.listening = undefined;
      throw error;
    });
    return connected.listening;
  }

  async #startListening(connected: Connected): Promise<QueueEvents> {
    const { QueueEvents } = await import('bullmq');
    const tail = await connected.producer.xrevrange(this.#keys.events, '+', '-', 'COUNT', 1);
    const lastEventId = tail[0]?.[0] ?? '0-0';
    const reader = await openRedis(this.#options.connection, { maxRetriesPerRequest: null });
    reader.on('error', () => undefined);
    connected.reader = reader;
    const events = new QueueEvents(this.#options.queue, { connection: reader, prefix: this.#options.prefix, lastEventId });
    events.on('error', (error) => this.#options.logger.debug({ err: error }, 'bullmq queue events error'));
    events.on('active', ({ jobId }) => {
      const pending = this.#pending.get(jobId);
      if (pending) pending.active = true;
    });
    events.on('progress', ({ jobId, data }, entryId) => this.#claimEntry(jobId, entryId, false)?.onProgress(data));
    events.on('completed', ({ jobId, returnvalue }, entryId) => this.#claimEntry(jobId, entryId, true)?.settle(readOutcome(returnvalue)));
    events.on('failed', ({ jobId, failedReason }, entryId) => {
      this.#claimEntry(jobId, entryId, true)?.settle({ ok: false, kind: 'error', code: 'EXECUTION_FAILED', message: `the worker could not finish the job: ${failedReason}` });
    });
    await events.waitUntilReady();
    return events;
  }

  #armPickup(at: number): void {
    clearTimeout(this.#pickupTimer);
    this.#pickupAt = at;
    this.#pickupTimer = setTimeout(this.#checkPickups, Math.max(at - performance.now(), 0));
  }

  /**
   * The earliest pickup deadline passed: withdraw every call no worker took in time, then arm the
   * timer for the next one.
   */
  #withdrawLate(): void {
    this.#pickupTimer = undefined;
    this.#pickupAt = Infinity;
    const connected = this.#live;
    if (connected === undefined || this.#closed) return;
    const now = performance.now();
    let next = Infinity;
    for (const call of this.#pending.values()) {
      if (call.active || call.withdrawing) continue;
      if (call.withdrawAt <= now) void this.#withdrawIfWaiting(connected, call);
      else next = Math.min(next, call.withdrawAt);
    }
    if (next !== Infinity) this.#armPickup(next);
  }

  /** No worker took the job in time: take it back, so it cannot run after the caller was told it did not. */
  async #withdrawIfWaiting(connected: Connected, call: PendingCall): Promise<void> {
    call.withdrawing = true;
    const removed = await connected.queue.remove(call.jobId).catch(() => 0);
    if (removed !== 1) return; // a worker holds it now: its answer is on the way
    call.answered = true;
    const { toolName } = call.job;
    call.settle({
      ok: false,
      kind: 'tool',
      code: 'NO_WORKER',
      message:
        `no worker took ${toolName} from queue "${this.#options.queue}" within ${this.#options.pickupTimeoutMs} ms, ` +
        'so the call was withdrawn and did not run. The tool workers may be down or busy; try again later or use another tool.',
    });
  }

  /**
   * The caller gave up: mark the job cancelled (a worker that has not started the body will not),
   * tell the workers (the one running it aborts the body's signal), and remove it if still waiting.
   */
  async #cancel(call: PendingCall): Promise<void> {
    const connected = this.#live;
    if (connected === undefined) return;
    const { jobId, job } = call;
    const key = this.#keys.cancelled(jobId);
    const ttlMs = job.deadlineAt === null ? 3_600_000 : Math.max(job.deadlineAt - Date.now(), 0) + 60_000;
    try {
      await connected.producer.multi().set(key, '1', 'PX', ttlMs).publish(this.#keys.cancelChannel, jobId).exec();
      const removed = await connected.queue.remove(jobId).catch(() => 0);
      if (removed === 1) await connected.producer.del(key);
    } catch (error) {
      this.#options.logger.warn({ err: error, jobId }, 'could not cancel a remote tool call; the worker stops it at its deadline');
    }
  }

  /**
   * Redis restarted. One that restarted without its data lost the jobs that were out: their
   * callers would otherwise wait until their deadlines. After a grace period (an answer stored
   * just before the restart may still be on its way through the events reader), each call whose
   * job no longer exists is answered as interrupted.
   */
  async #checkPendingAfterRestart(): Promise<void> {
    const connected = await this.#connected?.catch(() => undefined);
    if (!connected) return;
    await new Promise((resolve) => setTimeout(resolve, RESTART_GRACE_MS));
    for (const [jobId, pending] of this.#pending) {
      const state = await connected.queue.getJobState(jobId).catch(() => 'unknown-error');
      if (state !== 'unknown') continue;
      pending.settle({ ok: false, kind: 'tool', code: 'INTERRUPTED', message: `${INTERRUPTED_CALL_CONTENT} (Redis restarted and lost the job)` });
    }
  }

  #unavailable(job: ToolJob, cause: unknown): ToolCallError {
    const why = cause instanceof Error ? ` (${cause.message})` : '';
    return new ToolCallError(
      'REDIS_UNAVAILABLE',
      `${job.toolName} was not run: the tool queue at ${describeConnection(this.#options.connection)} is unreachable${why}. ` +
        'The call had no effect; try again later.',
      { cause },
    );
  }
}

const RESTART_GRACE_MS = 1_000;
/** How long a job without a deadline may still answer after its caller left. */
const ABANDONED_MAX_MS = 3_600_000;
/** Expired abandoned jobs are dropped once this many are remembered. */
const ABANDONED_SWEEP_AT = 256;

async function readRunId(client: Redis): Promise<string | undefined> {
  try {
    return /run_id:(\w+)/.exec(await client.info('server'))?.[1];
  } catch {
    return undefined;
  }
}

/** A return value that is not an outcome (a foreign worker on the queue) is a failure, not a success. */
function readOutcome(value: unknown): ToolJobOutcome {
  if (typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean') {
    const outcome = value as ToolJobOutcome;
    if (outcome.ok || (typeof outcome.code === 'string' && typeof outcome.message === 'string')) return outcome;
  }
  return { ok: false, kind: 'error', code: 'EXECUTION_FAILED', message: 'the worker answered with something that is not a weir tool outcome' };
}
