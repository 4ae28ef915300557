import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { SessionEntry } from '@weir/session';
import { createRedisSessionStore } from '@weir/session-redis';
import { startRedis, type TestRedis } from './fixtures/redis-server.js';

let server: TestRedis;
beforeAll(async () => {
  server = await startRedis();
}, 30_000);
afterAll(() => server?.stop());

const user = (content: string): SessionEntry => ({ type: 'message', message: { role: 'user', content } });

describe('what an acknowledged append survives on Redis', () => {
  it('refuses a server that does not fsync every write, in one line, unless told durability: memory', async () => {
    const redis = new Redis(server.url);
    try {
      await redis.config('SET', 'appendfsync', 'everysec');
      const error = await createRedisSessionStore({ redis, prefix: 'weak:' }).create().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SESSION_WRITE_FAILED', message: expect.stringContaining('appendfsync everysec') });
      expect((error as Error).message).not.toContain('\n');
      await (await createRedisSessionStore({ redis, prefix: 'weak:', durability: 'memory' }).create()).close();
    } finally {
      await redis.config('SET', 'appendfsync', 'always');
      redis.disconnect();
    }
  });

  it('a Redis SIGKILLed after appends keeps every acknowledged record (AOF, appendfsync always)', { timeout: 30_000 }, async () => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 }).on('error', () => undefined); // it sees the crash
    const store = createRedisSessionStore({ redis, prefix: 'crash:' });
    const session = await store.create();
    const acknowledged = await Promise.all(Array.from({ length: 50 }, (_, n) => session.append(user(`r${n}`))));
    await server.crash();
    redis.disconnect();
    await server.start();
    const again = new Redis(server.url);
    try {
      const records = await createRedisSessionStore({ redis: again, prefix: 'crash:' }).read(session.id);
      expect(records.slice(1)).toEqual(acknowledged);
    } finally {
      again.disconnect();
    }
  });

  it('connections killed mid-append (CLIENT KILL): ioredis resends, the script adds nothing twice, every acknowledged record is there', { timeout: 30_000 }, async () => {
    const redis = new Redis(server.url, { connectionName: 'weir-writer' }).on('error', () => undefined); // killed on purpose
    const admin = new Redis(server.url);
    const store = createRedisSessionStore({ redis, prefix: 'loss:' });
    const session = await store.create();
    let kills = 0;
    const killing = (async () => {
      for (; kills < 20; kills += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      }
    })();
    const acknowledged: number[] = [];
    let failure: unknown;
    while (kills < 20 && failure === undefined) {
      await session.append(user(`n${acknowledged.length}`)).then((record) => acknowledged.push(record.seq), (error: unknown) => (failure = error));
    }
    await killing;
    await session.close().catch(() => undefined);
    const records = await createRedisSessionStore({ redis: admin, prefix: 'loss:' }).read(session.id);
    const seqs = records.map((record) => record.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    for (const seq of acknowledged) expect(seqs).toContain(seq);
    const contents = records.slice(1).map((record) => (record as { message?: { content?: string } }).message?.content);
    expect(new Set(contents).size).toBe(contents.length); // nothing appended twice
    console.log(`redis connection loss: ${kills} connection kills during ${acknowledged.length} acknowledged appends, ${failure === undefined ? 'none' : 'one'} failed, all read back once`);
    redis.disconnect();
    admin.disconnect();
  });
});
