import { randomBytes } from 'node:crypto';
import { HarnessError } from '@weir/core';

// Safe as a file name on every platform: no separator, no dot (so no "..", no hidden or extension games).
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** True when `id` can name a session: 1 to 128 of `A-Z a-z 0-9 _ -`. */
export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}

/** Throws `HarnessError` `INVALID_SESSION_ID` unless `isValidSessionId(id)`. */
export function assertSessionId(id: unknown): asserts id is string {
  if (!isValidSessionId(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.length > 140 ? `${id.slice(0, 140)}...` : id) : typeof id;
    throw new HarnessError('INVALID_SESSION_ID', `${shown} is not a valid session id: use 1 to 128 of A-Z, a-z, 0-9, "_" and "-".`);
  }
}

/**
 * A new session id: a UUID version 7 (RFC 9562), whose first 48 bits are the creation time in
 * milliseconds, so ids (and session files) sort by creation time. Never throws.
 */
export function createSessionId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  let time = Math.max(0, Math.floor(now));
  for (let i = 5; i >= 0; i -= 1) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
