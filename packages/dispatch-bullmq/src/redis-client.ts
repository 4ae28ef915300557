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
 * own after Redis restarts; this only bounds how long a call waits for it. The calls that wait
 * share one `ready` listener per client (many calls wait while Redis is away).
 */
export function whenReady(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  let next = nextReady.get(client);
  if (next === undefined) {
    const waiting = new Promise<void>((resolve) => client.once('ready', () => resolve()));
    void waiting.then(() => nextReady.delete(client));
    nextReady.set(client, waiting);
    next = waiting;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  return Promise.race([next.then(() => true), late]).finally(() => clearTimeout(timer));
}

const nextReady = new WeakMap<Redis, Promise<void>>();
