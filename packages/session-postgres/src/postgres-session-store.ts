import { deepFreeze, HarnessError, isHarnessError, type Logger, type SessionMeta, type SessionRecord } from '@weir/core';
import { createSessionId, type BlobCollection, type CreateSessionOptions, type ForkSessionOptions, type OpenSessionOptions, type SessionStore, type SessionSummary } from '@weir/session';
import { assertSessionId, blobRefsOf, checkListOptions, encodeRecord, externalizeImages, inlineImages, planFork, prepareRecord, summarizeSession, type ImageBlob } from '@weir/session/store-kit';
import type { Pool } from 'pg';
import { decodeRecords } from './decode-records.js';
import { migrateSessionSchema } from './migrate-session-schema.js';
import { postgresWriter } from './postgres-writer.js';
import { sessionQueries } from './session-queries.js';

export interface PostgresSessionStoreOptions {
  /**
   * The connections. The store never ends the pool; it adds an `error` listener to the pool and to
   * each connection the pool opens, so a connection the server drops is logged instead of crashing
   * the process. Keep `synchronous_commit` on
   * (the default): an acknowledged append is a committed, flushed transaction.
   */
  readonly pool: Pool;
  /** The schema holding the tables, created on first use. Default: `weir`. */
  readonly schema?: string;
  /**
   * How long a writer holds a session without renewing (it renews with every append and every
   * third of this while idle). A process that dies holding a session blocks others this long at
   * most. Default: 30 000.
   */
  readonly leaseMs?: number;
  /** Blobs written or reused within this many ms are never collected (an append may be about to name them). Default: 60 000. */
  readonly blobGraceMs?: number;
  readonly logger?: Logger;
  /** The clock for record times. Default: `new Date()`. */
  readonly now?: () => Date;
}

/** Pools whose connections already get an `error` listener (one per pool, however many stores share it). */
const watchedPools = new WeakSet<Pool>();

const ignore = () => undefined;
const silent: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore, child: () => silent };

/**
 * A `SessionStore` on PostgreSQL: one row per session (with its writer epoch and lease), one row per
 * record, images in a `blobs` table under their SHA-256. Every append is one statement that checks
 * the writer's epoch and inserts the record, committed before it resolves. The schema is migrated
 * on first use (`migrateSessionSchema`). See the package README for the guarantees.
 *
 * Never throws; its methods reject with the `HarnessError`s listed on `SessionStore`. A database
 * error while creating, opening or forking is `SESSION_WRITE_FAILED`; `read` and `list` reject with
 * the database error.
 */
export function createPostgresSessionStore(options: PostgresSessionStoreOptions): SessionStore {
  const { pool } = options;
  const schema = options.schema ?? 'weir';
  const logger = options.logger ?? silent;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 30_000;
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 100) throw new HarnessError('INVALID_SESSION_ID', `leaseMs must be an integer of at least 100, got ${leaseMs}.`);
  const sql = sessionQueries(schema);
  const blobGraceMs = options.blobGraceMs ?? 60_000;
  if (pool.listenerCount('error') === 0) pool.on('error', (error) => logger.warn({ err: error }, 'session-postgres: an idle connection failed'));
  // The pool listens on a connection only while it is idle, and `pool.query` only while its query
  // runs. A server that ends a connection (a restart, pg_terminate_backend) can say so between two
  // statements of a checked-out connection or while it is being closed, and a client 'error' with
  // no listener is thrown by Node. Every connection the pool opens from now on gets one.
  if (!watchedPools.has(pool)) {
    watchedPools.add(pool);
    pool.on('connect', (client) => client.on('error', (error) => logger.warn({ err: error }, 'session-postgres: a connection failed')));
  }

  let migrated: Promise<unknown> | undefined;
  const ready = async () => {
    migrated ??= migrateSessionSchema(pool, schema).catch((error: unknown) => {
      migrated = undefined; // try again on the next call
      throw error;
    });
    await migrated;
  };

  const storeBlobs = async (blobs: readonly ImageBlob[]) => {
    for (const blob of blobs) await pool.query(sql.insertBlob, [blob.hex, Buffer.from(blob.bytes)]);
  };

  const resolveBlobs = async (records: readonly SessionRecord[]): Promise<readonly SessionRecord[]> => {
    const refs = [...new Set(records.flatMap((record) => blobRefsOf(record as unknown as Record<string, unknown>)))];
    if (refs.length === 0) return records;
    const { rows } = await pool.query<{ hash: string; bytes: Buffer }>(sql.selectBlobs, [refs]);
    const found = new Map(rows.map((row) => [row.hash, row.bytes.toString('base64')]));
    return records.map((record) =>
      blobRefsOf(record as unknown as Record<string, unknown>).length === 0
        ? record
        : (deepFreeze(
            inlineImages(record as unknown as Record<string, unknown>, (hex) => {
              const data = found.get(hex);
              return data === undefined ? { missing: `its stored copy (blob ${hex}) is missing from the database` } : { data };
            }),
          ) as unknown as SessionRecord),
    );
  };

  const readRecords = async (id: string): Promise<readonly SessionRecord[]> => {
    const { rows } = await pool.query<{ body: string }>(sql.selectRecords, [id]);
    if (rows.length === 0) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in PostgreSQL schema ${schema}.`);
    const decoded = decodeRecords(id, rows.map((row) => row.body));
    if (!decoded.ok) throw new HarnessError('SESSION_CORRUPT', `Session ${id} in PostgreSQL schema ${schema} is damaged at record ${decoded.line}: ${decoded.reason}. Nothing was changed.`);
    return Object.freeze([...(await resolveBlobs(decoded.records))]);
  };

  async function collectGarbage(): Promise<BlobCollection> {
    await ready();
    const removed = (await pool.query(sql.collectBlobs, [blobGraceMs])).rowCount ?? 0;
    const { rows } = await pool.query<{ n: number }>(sql.countBlobs);
    return { removed, kept: rows[0]?.n ?? 0 };
  }

  const writer = (id: string, epoch: number, records: readonly SessionRecord[]) => postgresWriter({ pool, sql, id, epoch, records, leaseMs, logger, now, storeBlobs });

  return {
    async create(create: CreateSessionOptions = {}) {
      const at = now();
      const id = create.id ?? createSessionId(at.getTime());
      assertSessionId(id);
      const meta: SessionMeta = { type: 'session', id, created: at.toISOString(), ...(create.title === undefined ? {} : { title: create.title }) };
      const first = prepareRecord(meta, 1, meta.created);
      return guard(`creating session ${id}`, async () => {
        await ready();
        const inserted = await pool.query(sql.insertSession, [id, leaseMs, meta.created, [1], [lineOf(first.bytes)]]);
        if (inserted.rowCount === 0) throw exists(id);
        return writer(id, 1, [first.record]);
      });
    },

    async open(id, open: OpenSessionOptions = {}) {
      assertSessionId(id);
      return guard(`opening session ${id}`, async () => {
        await ready();
        const taken = await pool.query<{ epoch: string }>(sql.takeSession, [id, leaseMs, open.takeOver === true]);
        if (taken.rowCount === 0) {
          const held = await pool.query<{ epoch: string; remaining_ms: number }>(sql.selectHolder, [id]);
          const holder = held.rows[0];
          if (holder === undefined) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in PostgreSQL schema ${schema}.`);
          throw new HarnessError(
            'SESSION_LOCKED',
            `Session ${id} is held by writer epoch ${holder.epoch} for ${Math.max(0, Math.ceil(holder.remaining_ms))} ms more (its lease). Close it there, wait for the lease to run out, or open with takeOver.`,
          );
        }
        const epoch = Number(taken.rows[0]!.epoch);
        try {
          return writer(id, epoch, await readRecords(id));
        } catch (error) {
          await pool.query(sql.releaseSession, [id, epoch]).catch(() => undefined);
          throw error;
        }
      });
    },

    async read(id) {
      assertSessionId(id);
      await ready();
      return readRecords(id);
    },

    async list(options) {
      // Checked before any query: a wrong page is the caller's mistake, not the database's.
      if (options !== undefined) checkListOptions(options);
      await ready();
      // The page is chosen by the sessions' rows; only its sessions' records are read and summarized.
      const after = options?.after;
      const page = await pool.query<{ id: string; updated: string }>(sql.selectPage, [after?.updated ?? null, after?.id ?? null, options?.limit ?? null]);
      if (page.rows.length === 0) return [];
      const { rows } = await pool.query<{ id: string; bodies: string[] }>(sql.selectBodiesOf, [page.rows.map((row) => row.id)]);
      const bodiesOf = new Map(rows.map((row) => [row.id, row.bodies]));
      return page.rows.map((row) => {
        const decoded = decodeRecords(row.id, bodiesOf.get(row.id) ?? []);
        // The row's time orders the page and keys the next one, so the summary shows that time.
        return { ...summarizeSession(row.id, decoded.ok ? decoded.records : [], row.updated, !decoded.ok), updated: row.updated };
      });
    },

    async delete(id) {
      assertSessionId(id);
      await ready();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        try {
          const { rows } = await client.query<{ held: boolean | null }>(sql.lockForDelete, [id]);
          if (rows.length === 0) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in PostgreSQL schema ${schema}.`);
          if (rows[0]!.held === true) throw new HarnessError('SESSION_LOCKED', `Session ${id} is open for writing (its lease runs): close it before deleting it.`);
          await client.query(sql.deleteRecords, [id]);
          await client.query(sql.deleteSession, [id]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      } finally {
        client.release();
      }
      return collectGarbage();
    },

    collectGarbage,

    async fork(sourceId, fork: ForkSessionOptions = {}) {
      assertSessionId(sourceId);
      await ready();
      const { id, meta, copied } = planFork(sourceId, await readRecords(sourceId), fork, now());
      const first = prepareRecord(meta, 1, meta.created);
      const stored = copied.map((record) => externalizeImages(record as unknown as Record<string, unknown>));
      return guard(`forking session ${sourceId} into ${id}`, async () => {
        await storeBlobs(stored.flatMap((record) => record.blobs));
        const seqs = [1, ...copied.map((record) => record.seq)];
        const bodies = [lineOf(first.bytes), ...stored.map((record) => lineOf(encodeRecord(record.stored)))];
        // One statement: the session row and all its records, or nothing.
        const inserted = await pool.query(sql.insertSession, [id, leaseMs, meta.created, seqs, bodies]);
        if (inserted.rowCount === 0) throw exists(id);
        return writer(id, 1, [first.record, ...copied]);
      });
    },
  };
}

const exists = (id: string) => new HarnessError('SESSION_EXISTS', `A session with id ${id} already exists.`);

/** An encoded record without its newline: what a `body` holds. */
const lineOf = (bytes: Uint8Array): string => new TextDecoder().decode(bytes.subarray(0, bytes.byteLength - 1));

/** Runs a store step; a database error becomes `SESSION_WRITE_FAILED`, a `HarnessError` passes through. */
async function guard<T>(doing: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isHarnessError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    throw new HarnessError('SESSION_WRITE_FAILED', `${doing} failed${typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error).message}`, { cause: error });
  }
}
