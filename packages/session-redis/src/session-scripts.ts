// The Lua scripts of the Redis store. Redis runs a script alone (no other command in between), so
// each is one atomic step: the epoch check and the write it guards cannot be split by another writer.
// CREATE also adds to the store-wide set of sessions, so the store needs one Redis (with replicas or
// not), not a Redis Cluster.

/**
 * KEYS: records, epoch, lease, sessions set. ARGV: id, lease ms, body 1, body 2...
 * Creates the session with its first records, takes epoch 1 (or the next, if the id was used
 * before) and the lease. Returns the epoch, or 0 when the session exists.
 */
export const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[3], epoch, 'PX', ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1])
return epoch`;

/**
 * KEYS: records, epoch, lease. ARGV: lease ms, '1' to take over.
 * Returns { epoch } when taken, { 0, holder epoch, lease ms left } when held, { -1 } when there is no such session.
 */
export const OPEN = `
if redis.call('EXISTS', KEYS[1]) == 0 then return { -1 } end
local holder = redis.call('GET', KEYS[3])
if holder and ARGV[2] ~= '1' then return { 0, tonumber(holder), redis.call('PTTL', KEYS[3]) } end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[3], epoch, 'PX', ARGV[1])
return { epoch }`;

/**
 * KEYS: records, epoch, lease. ARGV: epoch, seq, body, lease ms.
 * Appends when ARGV[1] is the session's epoch and the record is the next one, renewing the lease.
 * Returns 1 when appended (or already there: a command ioredis resent after a reconnect finds its own
 * record and does not add it twice), -1 when fenced, -2 when seq is not the next one.
 */
export const APPEND = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return -1 end
local length = redis.call('LLEN', KEYS[1])
local seq = tonumber(ARGV[2])
if length >= seq and redis.call('LINDEX', KEYS[1], seq - 1) == ARGV[3] then return 1 end
if length ~= seq - 1 then return -2 end
redis.call('RPUSH', KEYS[1], ARGV[3])
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[4])
return 1`;

/** KEYS: epoch, lease. ARGV: epoch, lease ms. Renews the lease while ARGV[1] is the epoch; returns 1, or 0 when fenced. */
export const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1`;

/** KEYS: lease. ARGV: epoch. Gives the session up if this writer still holds it. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * KEYS: records, lease, sessions set. ARGV: id. Removes the session's records unless a writer holds
 * it; the epoch counter stays, so a session made again under this id gets larger epochs.
 * Returns 1 when removed, 0 when held, -1 when there is no such session.
 */
export const DELETE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[3], ARGV[1])
return 1`;

/**
 * KEYS: blob, touched zset. ARGV: hex, cutoff ms. Removes the blob if it was last written or reused
 * before the cutoff: an append reusing it re-scores it before pushing the record that names it.
 */
export const COLLECT_BLOB = `
local touched = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[1]) or '0')
if touched >= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;
