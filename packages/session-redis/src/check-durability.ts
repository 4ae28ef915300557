import { HarnessError } from '@weir/core';
import type { Redis } from 'ioredis';

/**
 * Resolves when the server appends every write to its AOF and fsyncs it before replying
 * (`appendonly yes`, `appendfsync always`). Rejects with `HarnessError` `SESSION_WRITE_FAILED`, in
 * one line, when it does not or when `CONFIG GET` is refused (a managed Redis hiding it).
 */
export async function checkDurability(redis: Redis): Promise<void> {
  let config: Record<string, string>;
  try {
    const reply = (await redis.config('GET', 'append*')) as string[];
    config = Object.fromEntries(Array.from({ length: reply.length / 2 }, (_, i) => [reply[2 * i]!, reply[2 * i + 1]!]));
  } catch (error) {
    throw new HarnessError(
      'SESSION_WRITE_FAILED',
      `Redis refused CONFIG GET (${(error as Error).message}), so the session store cannot check that acknowledged writes are fsynced: allow it, or pass durability: 'memory' to accept losing them in a Redis crash.`,
    );
  }
  if (config.appendonly !== 'yes' || config.appendfsync !== 'always') {
    throw new HarnessError(
      'SESSION_WRITE_FAILED',
      `Redis has appendonly ${config.appendonly ?? '?'} and appendfsync ${config.appendfsync ?? '?'}: an acknowledged record could be lost in a Redis crash. Set appendonly yes and appendfsync always, or pass durability: 'memory' to accept that.`,
    );
  }
}
