import type { Logger, SessionRecord } from '@weir/core';
import { sessionFencedError, WritableSession, type ImageBlob } from '@weir/session/store-kit';
import type { Pool } from 'pg';
import type { SessionQueries } from './session-queries.js';

export interface PostgresWriterOptions {
  readonly pool: Pool;
  readonly sql: SessionQueries;
  readonly id: string;
  readonly epoch: number;
  readonly records: readonly SessionRecord[];
  readonly leaseMs: number;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly storeBlobs: (blobs: readonly ImageBlob[]) => Promise<void>;
}

/**
 * The session a PostgreSQL store hands out: appends go through `appendRecord` (epoch checked in the
 * same statement), the lease is renewed by each append and, while idle, every third of the lease.
 * A sync has nothing to do: each append resolved only after its transaction committed.
 */
export function postgresWriter(options: PostgresWriterOptions): WritableSession {
  const { pool, sql, id, epoch, leaseMs, logger } = options;
  const renew = () => {
    pool.query(sql.renewLease, [id, epoch, leaseMs]).then(
      (result) => {
        if (result.rowCount === 0) logger.warn({ sessionId: id, epoch }, 'session-postgres: the lease could not be renewed: another writer took the session');
      },
      (error: unknown) => logger.warn({ sessionId: id, epoch, err: error }, 'session-postgres: renewing the lease failed'),
    );
  };
  // Unref'd: an open session alone does not keep the process alive.
  const heartbeat = setInterval(renew, Math.max(50, Math.floor(leaseMs / 3)));
  heartbeat.unref();
  return new WritableSession({
    id,
    epoch,
    records: options.records,
    now: options.now,
    logger,
    storeImages: true,
    sink: {
      async write(bytes, record, blobs) {
        // Each image is in the database before the record that names it.
        await options.storeBlobs(blobs);
        const body = new TextDecoder().decode(bytes.subarray(0, bytes.byteLength - 1));
        const result = await pool.query(sql.appendRecord, [id, epoch, record.seq, body, leaseMs, record.at]);
        if (result.rowCount !== 1) throw sessionFencedError(id, epoch);
      },
      datasync: async () => undefined,
      async close() {
        clearInterval(heartbeat);
        await pool.query(sql.releaseSession, [id, epoch]);
      },
    },
  });
}
