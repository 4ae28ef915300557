import { afterAll, beforeAll, describe, it } from 'vitest';
import pg from 'pg';
import { assertSessionStoreConformance } from '@weir/session/testing';
import { createPostgresSessionStore } from '@weir/session-postgres';
import { startPostgres, type TestPostgres } from './fixtures/postgres-server.js';

// The suite every store passes, against a real PostgreSQL this file starts: each case gets a schema
// of its own (migrated on first use), and restart() is a store on a second pool, as another process has.
let server: TestPostgres;
let pools: pg.Pool[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await server?.stop();
});

const newPool = () => {
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  pools.push(pool);
  return pool;
};

let clock = Date.UTC(2025, 0, 1);
const now = () => new Date((clock += 1000));
let cases = 0;

assertSessionStoreConformance(
  'postgres',
  () => {
    const schema = `conformance_${(cases += 1)}`;
    const pool = newPool();
    const other = newPool();
    return {
      store: createPostgresSessionStore({ pool, schema, now }),
      restart: () => createPostgresSessionStore({ pool: other, schema, now }),
      // What no crash can leave: a committed record whose body is not JSON.
      corrupt: async (id) => void (await pool.query(`UPDATE "${schema}".records SET body = '{"not json' WHERE session_id = $1 AND seq = 2`, [id])),
      cleanup: async () => {
        pools = pools.filter((p) => p !== pool && p !== other);
        await Promise.all([pool.end(), other.end()]);
      },
    };
  },
  { describe, it, simulates: ['damage'] },
);
