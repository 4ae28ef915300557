import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createFileSessionStore, type SessionEntry, type SessionStore } from '@weir/session';
import { createPostgresSessionStore } from '@weir/session-postgres';
import { createRedisSessionStore } from '@weir/session-redis';
import { printTable } from '../measure.js';
// The servers the stores' own tests start: a throwaway PostgreSQL cluster, a redis-server with
// appendonly yes + appendfsync always (the durability the Redis store requires).
import { startPostgres } from '../../../packages/session-postgres/test/fixtures/postgres-server.js';
import { startRedis } from '../../../packages/session-redis/test/fixtures/redis-server.js';

const entry = (n: number): SessionEntry => ({ type: 'message', message: { role: 'user', content: `message ${n}: ${'x'.repeat(200)}` } });

/** A store under measurement and a way to make a second instance over the same data (another process, a restart). */
interface Subject {
  readonly name: string;
  readonly store: () => SessionStore;
  /** What an acknowledged append means for it, as the bench calls it. */
  readonly sync: boolean;
  close(): Promise<void>;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** `sessions` sessions append `each` records at once, each append awaited (durable before the next): p50, p99 (ms), appends/s. */
async function appendLatency(store: SessionStore, sessions: number, each: number, sync: boolean) {
  const opened = await Promise.all(Array.from({ length: sessions }, () => store.create()));
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    opened.map(async (session) => {
      for (let n = 0; n < each; n += 1) {
        const t = performance.now();
        await session.append(entry(n), { sync });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(opened.map((session) => session.close()));
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), perSecond: latencies.length / seconds };
}

/** Time to open (resume) a session of `records` records from a fresh store instance, in ms. */
async function resumeTime(subject: Subject, records: number): Promise<number> {
  const session = await subject.store().create();
  // Written in batches of 100 unsynced appends and one sync: filling is not what is measured.
  for (let n = 0; n < records; n += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, i) => session.append(entry(n + i))));
    await session.sync();
  }
  await session.close();
  const t = performance.now();
  const resumed = await subject.store().open(session.id);
  const ms = performance.now() - t;
  if (resumed.records().length !== records + 1) throw new Error(`resumed ${resumed.records().length} records, wrote ${records + 1}`);
  await resumed.close();
  return ms;
}

/** Heap per open idle session (KiB): `count` sessions open, each with 10 records, after a GC. */
async function memoryPerSession(store: SessionStore, count: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const opened = [];
  for (let i = 0; i < count; i += 1) {
    const session = await store.create();
    for (let n = 0; n < 10; n += 1) await session.append(entry(n));
    opened.push(session);
  }
  gc?.();
  const kib = (process.memoryUsage().heapUsed - before) / count / 1024;
  await Promise.all(opened.map((session) => session.close()));
  return kib;
}

/**
 * The session stores side by side on this machine: the file store (each append with sync: true, so
 * acknowledged means on disk as for the others), PostgreSQL (each append a commit) and Redis (AOF,
 * appendfsync always).
 */
export async function sessionStoresBench(options: { quick: boolean }): Promise<void> {
  const each = options.quick ? 10 : 30;
  const resumeRecords = options.quick ? 1_000 : 10_000;
  const idle = options.quick ? 20 : 200;
  const postgres = await startPostgres();
  const redisServer = await startRedis();
  const dir = await mkdtemp(join(tmpdir(), 'weir-bench-sessions-'));
  const pools: pg.Pool[] = [];
  const clients: Redis[] = [];
  const subjects: Subject[] = [
    { name: 'file (sync each)', store: () => createFileSessionStore(dir), sync: true, close: async () => undefined },
    {
      name: 'postgres',
      store: () => {
        const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
        pools.push(pool);
        return createPostgresSessionStore({ pool, schema: 'bench' });
      },
      sync: true,
      close: async () => void (await Promise.all(pools.map((pool) => pool.end()))),
    },
    {
      name: 'redis',
      store: () => {
        const redis = new Redis(redisServer.url);
        clients.push(redis);
        return createRedisSessionStore({ redis, prefix: 'bench:' });
      },
      sync: true,
      close: async () => clients.forEach((client) => client.disconnect()),
    },
  ];
  try {
    const rows: string[][] = [];
    for (const subject of subjects) {
      const store = subject.store();
      const row = [subject.name];
      for (const sessions of [1, 16, 64]) {
        const figures = await appendLatency(store, sessions, each, subject.sync);
        row.push(`${figures.p50.toFixed(2)} / ${figures.p99.toFixed(2)} / ${Math.round(figures.perSecond)}`);
        console.error(`  ${subject.name}, ${sessions} sessions: ${row.at(-1)}`);
      }
      row.push((await resumeTime(subject, resumeRecords)).toFixed(0));
      console.error(`  ${subject.name}, resume: ${row.at(-1)} ms`);
      row.push((await memoryPerSession(store, idle)).toFixed(1));
      rows.push(row);
    }
    console.log(`\nsession stores: append p50 / p99 ms / appends per s at 1, 16, 64 sessions (${each} appends each, awaited one by one); resume of ${resumeRecords} records; heap per open idle session`);
    printTable(['store', '1 session', '16 sessions', '64 sessions', `resume ${resumeRecords} ms`, 'KiB per idle session'], rows);
  } finally {
    for (const subject of subjects) await subject.close();
    await postgres.stop();
    await redisServer.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
