import { deepFreeze, HarnessError, isHarnessError, type Logger, type SessionMeta, type SessionRecord } from '@weir/core';
import { createSessionId, type BlobCollection, type CreateSessionOptions, type ForkSessionOptions, type OpenSessionOptions, type SessionStore, type SessionSummary } from '@weir/session';
import { assertSessionId, blobRefsOf, byUpdatedDescending, checkListOptions, pageOfSummaries, encodeRecord, externalizeImages, inlineImages, planFork, prepareRecord, scanSessionLog, summarizeSession, type ImageBlob } from '@weir/session/store-kit';
import type { Redis } from 'ioredis';
import { checkDurability } from './check-durability.js';
import { redisKeys } from './redis-keys.js';
import { redisWriter } from './redis-writer.js';
import { COLLECT_BLOB, CREATE, DELETE, OPEN, RELEASE } from './session-scripts.js';

export interface RedisSessionStoreOptions {
  /** The connection (ioredis). The store never quits it. */
  readonly redis: Redis;
  /** Prefix of every key. Default: `weir:session:`. */
  readonly prefix?: string;
  /** How long a writer holds a session without renewing (each append renews, and every third of it while idle). Default: 30 000. */
  readonly leaseMs?: number;
  /**
   * What an acknowledged append must have reached. `'fsync'` (the default): the server's AOF with
   * `appendfsync always`, checked with `CONFIG GET` on first use (refused, in one line, when the
   * server is configured otherwise or hides its configuration). `'memory'`: whatever the server is
   * configured for, unchecked; a crash of Redis may then lose acknowledged records.
   */
  readonly durability?: 'fsync' | 'memory';
  /**
   * Replicas that must have each append before it is acknowledged (`WAIT`). Default: 0. With a
   * failover in mind, set it to at least 1: a primary's fsync does not survive its disk.
   */
  readonly replicas?: number;
  /** How long `WAIT` waits for those replicas, in ms. Default: 5 000. */
  readonly replicaTimeoutMs?: number;
  /** Blobs written or reused within this many ms are never collected (an append may be about to name them). Default: 60 000. */
  readonly blobGraceMs?: number;
  readonly logger?: Logger;
  /** The clock for record times. Default: `new Date()`. */
  readonly now?: () => Date;
}

const ignore = () => undefined;
const silent: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore, child: () => silent };

/**
 * A `SessionStore` on Redis: a list of record bodies per session, its epoch counter and lease key,
 * images as `blob:<sha256>` strings. Every append is one Lua script that checks the writer's epoch
 * and pushes the record. See the package README for what an acknowledgement means.
 *
 * Never throws; its methods reject with the `HarnessError`s listed on `SessionStore`. A Redis error
 * while creating, opening or forking is `SESSION_WRITE_FAILED`; `read` and `list` reject with it.
 */
export function createRedisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  const { redis } = options;
  const keys = redisKeys(options.prefix ?? 'weir:session:');
  const logger = options.logger ?? silent;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 30_000;
  const replicas = options.replicas ?? 0;
  const replicaTimeoutMs = options.replicaTimeoutMs ?? 5_000;
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 100) throw new HarnessError('INVALID_SESSION_ID', `leaseMs must be an integer of at least 100, got ${leaseMs}.`);
  if (!Number.isSafeInteger(replicas) || replicas < 0) throw new HarnessError('INVALID_SESSION_ID', `replicas must be a non-negative integer, got ${replicas}.`);

  let checked: Promise<void> | undefined;
  const ready = async () => {
    if (options.durability === 'memory') return;
    checked ??= checkDurability(redis).catch((error: unknown) => {
      checked = undefined;
      throw error;
    });
    await checked;
  };

  /** After a write: the replicas asked for have it, or the write fails (it may still be on the primary). */
  const replicated = async () => {
    if (replicas === 0) return;
    const acked = await redis.wait(replicas, replicaTimeoutMs);
    if (acked < replicas) throw new Error(`only ${acked} of ${replicas} replicas confirmed the write within ${replicaTimeoutMs} ms`);
  };

  const blobGraceMs = options.blobGraceMs ?? 60_000;
  const storeBlobs = async (blobs: readonly ImageBlob[]) => {
    for (const blob of blobs) {
      // Touched first: a collector that looks now keeps it.
      await redis.zadd(keys.blobsTouched, Date.now(), blob.hex);
      await redis.set(keys.blob(blob.hex), Buffer.from(blob.bytes), 'NX');
    }
  };

  async function collectGarbage(): Promise<BlobCollection> {
    const cutoff = Date.now() - blobGraceMs;
    const hexes = await redis.zrange(keys.blobsTouched, 0, -1);
    const named = new Set<string>();
    for (const id of await redis.smembers(keys.sessions)) {
      for (const body of await redis.lrange(keys.records(id), 0, -1)) for (const match of body.matchAll(/sha256:([0-9a-f]{64})/g)) named.add(match[1]!);
    }
    let removed = 0;
    for (const hex of hexes) {
      if (!named.has(hex)) removed += Number(await redis.eval(COLLECT_BLOB, 2, keys.blob(hex), keys.blobsTouched, hex, cutoff));
    }
    return { removed, kept: hexes.length - removed };
  }

  const decode = (id: string, bodies: readonly string[]) => {
    const scan = scanSessionLog(new TextEncoder().encode(bodies.map((body) => `${body}\n`).join('')), id);
    if (!scan.ok) return { ok: false as const, line: scan.damage.line, reason: scan.damage.reason };
    // Each body was pushed whole: there is no torn tail, a bad last body is damage too.
    if (scan.torn !== undefined) return { ok: false as const, line: scan.records.length + 1, reason: scan.torn.reason };
    return { ok: true as const, records: scan.records };
  };

  // The replies of one pipeline of commands, in order; the first failed command's error is thrown.
  const replies = async <T>(commands: readonly (readonly [string, ...(string | number)[]])[]): Promise<T[]> => {
    if (commands.length === 0) return [];
    const results = (await redis.pipeline(commands.map((command) => [...command])).exec()) ?? [];
    return commands.map((_, i) => {
      const [error, value] = results[i] ?? [new Error('no reply')];
      if (error) throw error;
      return value as T;
    });
  };

  const resolveBlobs = async (records: readonly SessionRecord[]): Promise<readonly SessionRecord[]> => {
    const refs = [...new Set(records.flatMap((record) => blobRefsOf(record as unknown as Record<string, unknown>)))];
    if (refs.length === 0) return records;
    const values = await redis.mgetBuffer(...refs.map((hex) => keys.blob(hex)));
    const found = new Map(refs.map((hex, i) => [hex, values[i]?.toString('base64')]));
    return records.map((record) =>
      blobRefsOf(record as unknown as Record<string, unknown>).length === 0
        ? record
        : (deepFreeze(
            inlineImages(record as unknown as Record<string, unknown>, (hex) => {
              const data = found.get(hex);
              return data === undefined ? { missing: `its stored copy (blob ${hex}) is missing from Redis` } : { data };
            }),
          ) as unknown as SessionRecord),
    );
  };

  const readRecords = async (id: string): Promise<readonly SessionRecord[]> => {
    const bodies = await redis.lrange(keys.records(id), 0, -1);
    if (bodies.length === 0) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in Redis.`);
    const decoded = decode(id, bodies);
    if (!decoded.ok) throw new HarnessError('SESSION_CORRUPT', `Session ${id} in Redis is damaged at record ${decoded.line}: ${decoded.reason}. Nothing was changed.`);
    return Object.freeze([...(await resolveBlobs(decoded.records))]);
  };

  const begin = async (id: string, bodies: readonly string[], records: readonly SessionRecord[]) => {
    const epoch = Number(await redis.eval(CREATE, 4, keys.records(id), keys.epoch(id), keys.lease(id), keys.sessions, id, leaseMs, ...bodies));
    if (epoch === 0) throw new HarnessError('SESSION_EXISTS', `A session with id ${id} already exists.`);
    await replicated();
    return redisWriter({ redis, keys, id, epoch, records, leaseMs, logger, now, storeBlobs, replicated });
  };

  return {
    async create(create: CreateSessionOptions = {}) {
      const at = now();
      const id = create.id ?? createSessionId(at.getTime());
      assertSessionId(id);
      const meta: SessionMeta = { type: 'session', id, created: at.toISOString(), ...(create.title === undefined ? {} : { title: create.title }) };
      const first = prepareRecord(meta, 1, meta.created);
      return guard(`creating session ${id}`, async () => {
        await ready();
        return begin(id, [lineOf(first.bytes)], [first.record]);
      });
    },

    async open(id, open: OpenSessionOptions = {}) {
      assertSessionId(id);
      return guard(`opening session ${id}`, async () => {
        await ready();
        const [epoch, holder, leftMs] = (await redis.eval(OPEN, 3, keys.records(id), keys.epoch(id), keys.lease(id), leaseMs, open.takeOver === true ? '1' : '0')) as number[];
        if (epoch === -1) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in Redis.`);
        if (epoch === 0) {
          throw new HarnessError(
            'SESSION_LOCKED',
            `Session ${id} is held by writer epoch ${holder} for ${Math.max(0, leftMs ?? 0)} ms more (its lease). Close it there, wait for the lease to run out, or open with takeOver.`,
          );
        }
        try {
          return redisWriter({ redis, keys, id, epoch: epoch!, records: await readRecords(id), leaseMs, logger, now, storeBlobs, replicated });
        } catch (error) {
          await redis.eval(RELEASE, 1, keys.lease(id), epoch!).catch(() => undefined);
          throw error;
        }
      });
    },

    async read(id) {
      assertSessionId(id);
      return readRecords(id);
    },

    async list(options) {
      if (options !== undefined) checkListOptions(options);
      const ids = await redis.smembers(keys.sessions);
      // The page is chosen by each session's last record (its time orders the listing): one record
      // a session is read for that, and the whole records only of the page's sessions.
      const lasts = await replies<string | null>(ids.map((id) => ['lindex', keys.records(id), -1]));
      const keyed = ids.map((id, i) => ({ id, updated: timeOf(lasts[i] ?? null) }));
      const page = pageOfSummaries(keyed.sort(byUpdatedDescending), options);
      const bodies = await replies<string[]>(page.map(({ id }) => ['lrange', keys.records(id), 0, -1]));
      return page.map(({ id, updated }, i) => {
        const decoded = decode(id, bodies[i] ?? []);
        // The key that placed it on the page is the time it shows, so `after` always finds its place.
        return { ...summarizeSession(id, decoded.ok ? decoded.records : [], updated, !decoded.ok), updated };
      });
    },

    async delete(id) {
      assertSessionId(id);
      const outcome = Number(await redis.eval(DELETE, 3, keys.records(id), keys.lease(id), keys.sessions, id));
      if (outcome === -1) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in Redis.`);
      if (outcome === 0) throw new HarnessError('SESSION_LOCKED', `Session ${id} is open for writing (its lease runs): close it before deleting it.`);
      return collectGarbage();
    },

    collectGarbage,

    async fork(sourceId, fork: ForkSessionOptions = {}) {
      assertSessionId(sourceId);
      const { id, meta, copied } = planFork(sourceId, await readRecords(sourceId), fork, now());
      const first = prepareRecord(meta, 1, meta.created);
      const stored = copied.map((record) => externalizeImages(record as unknown as Record<string, unknown>));
      return guard(`forking session ${sourceId} into ${id}`, async () => {
        await ready();
        await storeBlobs(stored.flatMap((record) => record.blobs));
        return begin(id, [lineOf(first.bytes), ...stored.map((record) => lineOf(encodeRecord(record.stored)))], [first.record, ...copied]);
      });
    },
  };
}

/** An encoded record without its newline: what the list holds. */
const lineOf = (bytes: Uint8Array): string => new TextDecoder().decode(bytes.subarray(0, bytes.byteLength - 1));

/** Runs a store step; a Redis error becomes `SESSION_WRITE_FAILED`, a `HarnessError` passes through. */
async function guard<T>(doing: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isHarnessError(error)) throw error;
    throw new HarnessError('SESSION_WRITE_FAILED', `${doing} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** The time of a record body (its `at`), or the epoch when it is missing or unreadable (a damaged session still lists). */
function timeOf(body: string | null): string {
  if (body === null) return EPOCH;
  try {
    const at = (JSON.parse(body) as { at?: unknown }).at;
    return typeof at === 'string' ? at : EPOCH;
  } catch {
    return EPOCH;
  }
}

const EPOCH = new Date(0).toISOString();
