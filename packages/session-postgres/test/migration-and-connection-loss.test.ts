import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { SessionEntry } from '@weir/session';
import { createPostgresSessionStore, migrateSessionSchema, SCHEMA_VERSION } from '@weir/session-postgres';
import { startPostgres, type TestPostgres } from './fixtures/postgres-server.js';

let server: TestPostgres;
let admin: pg.Pool;
beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
  // pool.end() resolves before its connections have closed; stopping the server right after tells
  // a connection still closing "terminating connection due to administrator command", and a pool
  // with no 'error' listener throws it.
  admin.on('error', () => undefined);
}, 60_000);
afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

const user = (content: string): SessionEntry => ({ type: 'message', message: { role: 'user', content } });

describe('the schema migration', () => {
  it('runs once: five migrations racing on five pools apply each version exactly once, and a later run applies nothing', async () => {
    const pools = Array.from({ length: 5 }, () => new pg.Pool({ connectionString: server.url, max: 1 }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrateSessionSchema(pool, 'race')));
      expect(applied.flat()).toEqual([1, 2, 3]);
      expect(await migrateSessionSchema(pools[0]!, 'race')).toEqual([]);
      const { rows } = await admin.query('SELECT max(version) AS version FROM race.schema_version');
      expect(rows).toEqual([{ version: SCHEMA_VERSION }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('refuses a schema name that is not a plain identifier, in one line', async () => {
    await expect(migrateSessionSchema(admin, 'x"; DROP TABLE y; --')).rejects.toMatchObject({ code: 'INVALID_SESSION_ID', message: expect.not.stringContaining('\n') });
  });
});

describe('connection loss', () => {
  it('a backend killed mid-append: every acknowledged record is there after reopening, seqs stay whole, and the session goes on', { timeout: 60_000 }, async () => {
    // The writer's connections carry an application_name, so the test kills exactly them.
    const pool = new pg.Pool({ connectionString: server.url, max: 2, application_name: 'weir-writer' });
    const store = createPostgresSessionStore({ pool, schema: 'loss', leaseMs: 2_000 });
    const session = await store.create();
    const acknowledged: number[] = [];
    let failedRounds = 0;
    let writer = session;
    for (let round = 0; round < 5; round += 1) {
      let failure: unknown;
      // Appends back to back; the kill lands while one is in flight.
      const appending = (async () => {
        for (let n = 0; ; n += 1) {
          try {
            acknowledged.push((await writer.append(user(`${round}:${n}`))).seq);
          } catch (error) {
            failure = error;
            return;
          }
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 20 + round * 10));
      // A kill may find the connection idle between two appends (the pool then just reconnects): kill until one lands mid-append.
      let settled = false;
      void appending.then(() => (settled = true));
      for (let kills = 0; !settled; kills += 1) {
        expect(kills).toBeLessThan(2_000);
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weir-writer'");
      }
      await appending;
      expect(failure).toMatchObject({ code: 'SESSION_WRITE_FAILED' });
      failedRounds += 1;
      await writer.close().catch(() => undefined); // releases the lease (on a fresh connection)
      writer = await store.open(session.id);
      const seqs = writer.records().map((record) => record.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // whole: no gap, no duplicate
      for (const seq of acknowledged) expect(seqs).toContain(seq);
      // At most the one unacknowledged append may be there too (committed, its answer lost).
      expect(seqs.length - 1 - acknowledged.length).toBeLessThanOrEqual(round + 1);
      acknowledged.splice(0, acknowledged.length, ...seqs.slice(1));
    }
    const last = await writer.append(user('after'), { sync: true });
    expect(last.seq).toBe(acknowledged.length + 2);
    await writer.close();
    expect(failedRounds).toBe(5);
    console.log(`connection loss: 5 backends killed mid-append, ${acknowledged.length} records acknowledged and all read back`);
    await pool.end();
  });

  it('a connection the server ends between two statements is logged, not thrown: the pool listens only while a connection is idle', { timeout: 30_000 }, async () => {
    const pool = new pg.Pool({ connectionString: server.url, max: 2, application_name: 'weir-checked-out' });
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (fields: unknown) => warnings.push(fields), child: () => logger };
    const store = createPostgresSessionStore({ pool, schema: 'checked_out', logger });
    await store.list(); // migrates, so the pool has opened a connection through the store's watch
    const client = await pool.connect(); // checked out: no pool listener on it now
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weir-checked-out'");
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ err: { code: '57P01' } });
    client.release(true);
    await pool.end();
  });
});
