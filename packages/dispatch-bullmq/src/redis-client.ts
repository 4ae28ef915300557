import type { Redis, RedisOptions } from 'ioredis';

/** Where Redis is: a `redis://` URL, or ioredis options (host, port, username, password, db, tls, ...). */
export type RedisConnection = string | RedisOptions;

/**
 * Opens an ioredis client. ioredis is imported here, on first use, not when the package is
 * imported: an agent that loads this plugin but never dispatches pays nothing at start-up.
 */
export async function openRedis(connection: RedisConnection, overrides: RedisOptions): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  if (typeof connection === 'string') return new RedisClient(connection, overrides);
  return new RedisClient({ ...connection, ...overrides });
}

/** `host:port` for messages, without the credentials a URL may carry. */
export function describeConnection(connection: RedisConnection): string {
  if (typeof connection === 'string') {
    try {
      const url = new URL(connection);
      return `${url.hostname}:${url.port || 6379}`;
    } catch {
      return 'the configured Redis';
    }
  }
  return `${connection.host ?? '127.0.0.1'}:${connection.port ?? 6379}`;
}

/**
 * Resolves true once `client` is connected, false after `timeoutMs`. ioredis reconnects on its
 * own after Redis restarts; this only bounds how long a call waits for it.
 */
export function whenReady(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on('ready', onReady);
  });
}
