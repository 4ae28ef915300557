import { HarnessError } from '@weir/core';
import type { Pool } from 'pg';

/** A schema name the store accepts: a plain lowercase SQL identifier, so it is never quoted wrongly. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Throws `HarnessError` `INVALID_SESSION_ID` when `schema` is not a plain lowercase identifier. */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new HarnessError('INVALID_SESSION_ID', `PostgreSQL schema name ${JSON.stringify(schema)} is not a plain identifier: use a-z, 0-9 and _, starting with a letter or _.`);
  }
}

/** The migrations, in order; version n is `MIGRATIONS[n - 1]`. Never edit one that shipped: add the next. */
const MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    CREATE TABLE "${s}".sessions (
      id text PRIMARY KEY,
      -- The writer epoch: bumped by every open; a write must name the current one.
      epoch bigint NOT NULL,
      -- Until when the current writer holds the session; NULL once it closed.
      lease_until timestamptz,
      -- ISO 8601 time of the last record (what list sorts by).
      updated text NOT NULL
    );
    CREATE TABLE "${s}".records (
      session_id text NOT NULL REFERENCES "${s}".sessions (id),
      seq integer NOT NULL,
      -- The record's JSON as the file store writes its line (text, not jsonb: jsonb refuses \\u0000 and reorders keys).
      body text NOT NULL,
      PRIMARY KEY (session_id, seq)
    );
    CREATE TABLE "${s}".blobs (
      -- Lowercase hex SHA-256 of bytes.
      hash text PRIMARY KEY,
      bytes bytea NOT NULL
    );`,
  // When an append last wrote or reused the blob: garbage collection keeps blobs touched recently,
  // so an append that reuses a blob between the collector's look and its delete keeps it.
  (s) => `ALTER TABLE "${s}".blobs ADD COLUMN touched timestamptz NOT NULL DEFAULT now();`,
  // list pages by (updated, id), newest first, compared byte by byte: one index range per page.
  (s) => `CREATE INDEX sessions_listing ON "${s}".sessions (updated COLLATE "C" DESC, id COLLATE "C" DESC);`,
];

/** The latest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings `schema` to the latest version: creates it and its tables on first use, applies what is
 * missing after an upgrade, and does nothing when it is current. Safe to run twice and from many
 * processes at once: it runs in one transaction holding an advisory lock named after the schema, so
 * a second runner waits and then finds nothing to do. Resolves to the versions it applied. Rejects
 * with the database error; a database newer than this package is refused with a one-line error.
 */
export async function migrateSessionSchema(pool: Pool, schema = 'weir'): Promise<number[]> {
  assertSchemaName(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`weir-session-schema:${schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".schema_version (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`);
      const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM "${schema}".schema_version`);
      const current = rows[0]?.version ?? 0;
      if (current > SCHEMA_VERSION) {
        throw new Error(`PostgreSQL schema ${schema} is at version ${current}, newer than this @weir/session-postgres knows (${SCHEMA_VERSION}): upgrade the package.`);
      }
      const applied: number[] = [];
      for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) {
        await client.query(MIGRATIONS[version - 1]!(schema));
        await client.query(`INSERT INTO "${schema}".schema_version (version) VALUES ($1)`, [version]);
        applied.push(version);
      }
      await client.query('COMMIT');
      return applied;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}
