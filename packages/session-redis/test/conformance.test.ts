import { afterAll, beforeAll, describe, it } from 'vitest';
import { Redis } from 'ioredis';
import { assertSessionStoreConformance } from '@weir/session/testing';
import { createRedisSessionStore } from '@weir/session-redis';
import { startRedis, type TestRedis } from './fixtures/redis-server.js';

// The suite every store passes, against a real redis-server this file starts (AOF, appendfsync
// always): each case gets a key prefix of its own, and restart() is a store on a second connection.
let server: TestRedis;
beforeAll(async () => {
  server = await startRedis();
}, 30_000);
afterAll(() => server?.stop());

let clock = Date.UTC(2025, 0, 1);
const now = () => new Date((clock += 1000));
let cases = 0;

assertSessionStoreConformance(
  'redis',
  () => {
    const prefix = `conformance:${(cases += 1)}:`;
    const redis = new Redis(server.url);
    const other = new Redis(server.url);
    return {
      store: createRedisSessionStore({ redis, prefix, now }),
      restart: () => createRedisSessionStore({ redis: other, prefix, now }),
      // What no crash can leave: a pushed record whose body is not JSON.
      corrupt: async (id) => void (await redis.lset(`${prefix}{${id}}:records`, 1, '{"not json')),
      cleanup: async () => {
        redis.disconnect();
        other.disconnect();
      },
    };
  },
  { describe, it, simulates: ['damage'] },
);
