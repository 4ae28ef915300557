import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

// Random bytes are drawn 4 KiB at a time: one `randomFillSync` costs a few microseconds, whatever
// its size, and calls that wait on I/O (an MCP server, a shell) start a new millisecond nearly
// every time, so a draw per millisecond was a draw per call. Ten bytes are taken per millisecond.
const POOL_BYTES = 4_096;
const DRAW_BYTES = 10;
const pool = new Uint8Array(POOL_BYTES);
let poolOffset = POOL_BYTES;

function draw(): number {
  if (poolOffset + DRAW_BYTES > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const offset = poolOffset;
  poolOffset += DRAW_BYTES;
  return offset;
}

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
  const at = draw();
  const high = Math.floor(ms / 0x10000);
  const low = ms % 0x10000;
  head = `${HEX[(high >>> 24) & 0xff]}${HEX[(high >>> 16) & 0xff]}${HEX[(high >>> 8) & 0xff]}${HEX[high & 0xff]}-${HEX[low >>> 8]}${HEX[low & 0xff]}-7`;
  const r = pool;
  counter = ((r[at]! << 8) | r[at + 1]!) & 0x3ff;
  tail = `-${HEX[0x80 | (r[at + 2]! & 0x3f)]}${HEX[r[at + 3]!]}-${HEX[r[at + 4]!]}${HEX[r[at + 5]!]}${HEX[r[at + 6]!]}${HEX[r[at + 7]!]}${HEX[r[at + 8]!]}${HEX[r[at + 9]!]}`;
}
