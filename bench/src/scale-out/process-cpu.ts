import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * CPU time (user + system, ms) another process has used so far, from `/proc/<pid>/stat` (in clock
 * ticks of 10 ms: sum it over batches of a few hundred milliseconds or more). `undefined` where
 * there is no `/proc` (not Linux).
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, ms) the Redis server has used so far, from `INFO cpu`. */
export async function redisCpuMs(client: Redis): Promise<number> {
  const info = await client.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
}
