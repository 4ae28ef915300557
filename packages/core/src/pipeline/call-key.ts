import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the system in blocks, not per key: a key costs a few array reads.
const POOL_SIZE = 4_096;
const pool = new Uint8Array(POOL_SIZE);
let poolOffset = POOL_SIZE;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A new call key: a UUIDv7 (RFC 9562), time-ordered and unique across turns, agents and processes.
 * Model call ids repeat (across turns, across agents sharing a queue, and some providers send
 * duplicate or empty ones); approvals, journals, queue jobs and trace spans key on this instead.
 */
export function newCallKey(): string {
  if (poolOffset + 10 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const time = Date.now();
  const high = Math.floor(time / 0x10000);
  const low = time % 0x10000;
  const r = pool;
  const o = poolOffset;
  poolOffset += 10;
  return (
    HEX[(high >>> 24) & 0xff]! + HEX[(high >>> 16) & 0xff]! + HEX[(high >>> 8) & 0xff]! + HEX[high & 0xff]! + '-' +
    HEX[(low >>> 8) & 0xff]! + HEX[low & 0xff]! + '-' +
    HEX[0x70 | (r[o]! & 0x0f)]! + HEX[r[o + 1]!]! + '-' +
    HEX[0x80 | (r[o + 2]! & 0x3f)]! + HEX[r[o + 3]!]! + '-' +
    HEX[r[o + 4]!]! + HEX[r[o + 5]!]! + HEX[r[o + 6]!]! + HEX[r[o + 7]!]! + HEX[r[o + 8]!]! + HEX[r[o + 9]!]!
  );
}
