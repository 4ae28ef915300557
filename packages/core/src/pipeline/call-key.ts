import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const random = new Uint8Array(10);

// The millisecond the keys are made in, its text up to the counter, and its random tail.
let lastMs = -1;
let head = '';
let tail = '';
let counter = 0;

/**
 * A new call key: a UUIDv7 (RFC 9562), time-ordered and unique across turns, agents and processes.
 * Model call ids repeat (across turns, across agents sharing a queue, and some providers send
 * duplicate or empty ones); approvals, journals, queue jobs and trace spans key on this instead.
 *
 * RFC 9562's method 1: within one millisecond, a 12-bit counter (`rand_a`, started at a random
 * value below 1024) orders the keys, and the 62 random bits of `rand_b`, drawn once per millisecond,
 * tell this process's keys from any other's. A key then costs a counter step and one string join;
 * a counter that runs out moves on to the next millisecond, so keys never go back in time.
 */
export function newCallKey(): string {
  const now = Date.now();
  if (now > lastMs) startMillisecond(now);
  else if (counter === 0xfff) startMillisecond(lastMs + 1);
  else counter += 1;
  return head + HEX[counter >>> 8]!.slice(1) + HEX[counter & 0xff]! + tail;
}

function startMillisecond(ms: number): void {
  lastMs = ms;
  randomFillSync(random);
  const high = Math.floor(ms / 0x10000);
  const low = ms % 0x10000;
  head = `${HEX[(high >>> 24) & 0xff]}${HEX[(high >>> 16) & 0xff]}${HEX[(high >>> 8) & 0xff]}${HEX[high & 0xff]}-${HEX[low >>> 8]}${HEX[low & 0xff]}-7`;
  counter = ((random[0]! << 8) | random[1]!) & 0x3ff;
  const r = random;
  tail = `-${HEX[0x80 | (r[2]! & 0x3f)]}${HEX[r[3]!]}-${HEX[r[4]!]}${HEX[r[5]!]}${HEX[r[6]!]}${HEX[r[7]!]}${HEX[r[8]!]}${HEX[r[9]!]}`;
}
