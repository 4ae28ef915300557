import { assertSchemaName } from './migrate-session-schema.js';

/** The store's SQL for one schema. Parameters are numbered as each query's comment says. */
export function sessionQueries(schema: string) {
  assertSchemaName(schema);
  const s = `"${schema}"`;
  const lease = (param: string) => `now() + make_interval(secs => ${param}::double precision / 1000)`;
  return {
    /** $1 id, $2 lease ms, $3 updated, $4 seqs, $5 bodies: the session row and its first records in one statement; no row when the id exists. */
    insertSession: `
      WITH created AS (
        INSERT INTO ${s}.sessions (id, epoch, lease_until, updated) VALUES ($1, 1, ${lease('$2')}, $3)
        ON CONFLICT (id) DO NOTHING RETURNING id
      )
      INSERT INTO ${s}.records (session_id, seq, body)
      SELECT created.id, r.seq, r.body FROM created, unnest($4::integer[], $5::text[]) AS r (seq, body)`,
    /**
     * $1 id, $2 lease ms, $3 take over: bumps the epoch and takes the lease when it is free (or
     * expired, or forced). The row lock makes racing opens take turns: the second sees the lease taken.
     */
    takeSession: `
      UPDATE ${s}.sessions SET epoch = epoch + 1, lease_until = ${lease('$2')}
      WHERE id = $1 AND ($3 OR lease_until IS NULL OR lease_until <= now())
      RETURNING epoch`,
    /** $1 id: who holds it, for the SESSION_LOCKED message. */
    selectHolder: `SELECT epoch, extract(epoch FROM lease_until - now()) * 1000 AS remaining_ms FROM ${s}.sessions WHERE id = $1`,
    /**
     * $1 id, $2 epoch, $3 seq, $4 body, $5 lease ms, $6 updated: the record goes in only if $2 is
     * still the session's epoch, checked and written in one statement (one transaction), renewing the lease.
     */
    appendRecord: `
      WITH writer AS (
        UPDATE ${s}.sessions SET lease_until = ${lease('$5')}, updated = $6
        WHERE id = $1 AND epoch = $2 RETURNING id
      )
      INSERT INTO ${s}.records (session_id, seq, body) SELECT writer.id, $3, $4 FROM writer`,
    /** $1 id, $2 epoch, $3 lease ms. */
    renewLease: `UPDATE ${s}.sessions SET lease_until = ${lease('$3')} WHERE id = $1 AND epoch = $2`,
    /** $1 id, $2 epoch: gives the session up, if this writer still holds it. */
    releaseSession: `UPDATE ${s}.sessions SET lease_until = NULL WHERE id = $1 AND epoch = $2`,
    /** $1 id. */
    selectRecords: `SELECT body FROM ${s}.records WHERE session_id = $1 ORDER BY seq`,
    /**
     * $1 after's updated (or null), $2 after's id, $3 limit (or null for all): one keyset page of
     * the listing order, most recently updated first, then by id, compared byte by byte (COLLATE "C")
     * as JavaScript compares the strings; served by the sessions_listing index.
     */
    selectPage: `
      SELECT id, updated FROM ${s}.sessions
      WHERE $1::text IS NULL OR (updated COLLATE "C", id COLLATE "C") < ($1::text COLLATE "C", $2::text COLLATE "C")
      ORDER BY updated COLLATE "C" DESC, id COLLATE "C" DESC
      LIMIT $3`,
    /** $1 ids: the records of those sessions only, in order. */
    selectBodiesOf: `
      SELECT session_id AS id, array_agg(body ORDER BY seq) AS bodies
      FROM ${s}.records WHERE session_id = ANY($1::text[]) GROUP BY session_id`,
    /** $1 hash, $2 bytes. */
    insertBlob: `INSERT INTO ${s}.blobs (hash, bytes) VALUES ($1, $2) ON CONFLICT (hash) DO UPDATE SET touched = now()`,
    /** $1 id: the session row, locked for a delete, with whether a writer holds it. */
    lockForDelete: `SELECT lease_until > now() AS held FROM ${s}.sessions WHERE id = $1 FOR UPDATE`,
    /** $1 id. */
    deleteRecords: `DELETE FROM ${s}.records WHERE session_id = $1`,
    /** $1 id. */
    deleteSession: `DELETE FROM ${s}.sessions WHERE id = $1`,
    /** $1 grace ms: blobs no record names, untouched for that long. */
    collectBlobs: `
      DELETE FROM ${s}.blobs b WHERE b.touched < now() - make_interval(secs => $1::double precision / 1000)
      AND NOT EXISTS (SELECT 1 FROM ${s}.records r WHERE strpos(r.body, 'sha256:' || b.hash) > 0)`,
    countBlobs: `SELECT count(*)::integer AS n FROM ${s}.blobs`,
    /** $1 hashes. */
    selectBlobs: `SELECT hash, bytes FROM ${s}.blobs WHERE hash = ANY($1::text[])`,
  };
}

export type SessionQueries = ReturnType<typeof sessionQueries>;
