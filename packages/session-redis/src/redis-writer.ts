import type { Logger, SessionRecord } from '@weir/core';
import { sessionFencedError, WritableSession, type ImageBlob } from '@weir/session/store-kit';
import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';
import { APPEND, RELEASE, RENEW } from './session-scripts.js';

export interface RedisWriterOptions {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly id: string;
  readonly epoch: number;
  readonly records: readonly SessionRecord[];
  readonly leaseMs: number;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly storeBlobs: (blobs: readonly ImageBlob[]) => Promise<void>;
  /** Resolves once the replicas the store asks for have the writes so far; rejects otherwise. */
  readonly replicated: () => Promise<void>;
}

/**
 * The session a Redis store hands out: each append is the APPEND script (epoch checked, record
 * pushed, lease renewed, in one step), then `WAIT` when replicas are asked for. With `appendfsync
 * always` the server fsyncs its AOF before it replies, so a sync has nothing left to do.
 */
export function redisWriter(options: RedisWriterOptions): WritableSession {
  const { redis, keys, id, epoch, leaseMs, logger } = options;
  const heartbeat = setInterval(() => {
    redis.eval(RENEW, 2, keys.epoch(id), keys.lease(id), epoch, leaseMs).then(
      (renewed) => {
        if (Number(renewed) !== 1) logger.warn({ sessionId: id, epoch }, 'session-redis: the lease could not be renewed: another writer took the session');
      },
      (error: unknown) => logger.warn({ sessionId: id, epoch, err: error }, 'session-redis: renewing the lease failed'),
    );
  }, Math.max(50, Math.floor(leaseMs / 3)));
  // Unref'd: an open session alone does not keep the process alive.
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
        // Each image is in Redis before the record that names it.
        await options.storeBlobs(blobs);
        const body = new TextDecoder().decode(bytes.subarray(0, bytes.byteLength - 1));
        const outcome = Number(await redis.eval(APPEND, 3, keys.records(id), keys.epoch(id), keys.lease(id), epoch, record.seq, body, leaseMs));
        if (outcome === -1) throw sessionFencedError(id, epoch);
        if (outcome !== 1) throw new Error(`record ${record.seq} is not the next record of session ${id} in Redis (the list was changed outside the store)`);
        await options.replicated();
      },
      datasync: async () => undefined,
      async close() {
        clearInterval(heartbeat);
        await redis.eval(RELEASE, 1, keys.lease(id), epoch);
      },
    },
  });
}
