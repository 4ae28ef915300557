/** The keys of a Redis store under `prefix`. One session's keys share the hash tag `{id}`. */
export function redisKeys(prefix: string) {
  const of = (id: string) => `${prefix}{${id}}`;
  return {
    records: (id: string) => `${of(id)}:records`,
    epoch: (id: string) => `${of(id)}:epoch`,
    lease: (id: string) => `${of(id)}:lease`,
    sessions: `${prefix}sessions`,
    blob: (hex: string) => `${prefix}blob:${hex}`,
    /** Sorted set: each blob's hex, scored by when an append last wrote or reused it (ms). */
    blobsTouched: `${prefix}blobs:touched`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
