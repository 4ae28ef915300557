import { deepFreeze } from '@weir/core';
import { decodeLine } from './record-codec.js';
import { checkSessionRecord } from './check-session-record.js';
import { type SessionRecord } from '@weir/core';

/** Unacknowledged bytes at the end of a log: a write cut short by a crash. */
export interface TornTail {
  /** Where the good records end: the length to truncate the file to. */
  readonly offset: number;
  /** How many bytes follow it. */
  readonly bytes: number;
  readonly reason: string;
}

/** Damage that a crash cannot explain: a bad record followed by more data. */
export interface LogDamage {
  /** 1-based line number of the first bad line. */
  readonly line: number;
  /** Its byte offset. */
  readonly offset: number;
  readonly reason: string;
}

export type LogScan =
  | { readonly ok: true; readonly records: readonly SessionRecord[]; readonly torn: TornTail | undefined }
  | { readonly ok: false; readonly damage: LogDamage };

const NEWLINE = 0x0a;

/**
 * Reads a session log. Rules:
 * - every line must be a valid record whose `seq` is the previous one plus 1, starting at 1 with the
 *   session record for `id`;
 * - a last line without `\n`, and a line that does not parse with nothing but NUL bytes and newlines
 *   after it (a run of NULs included), are a torn tail: reported, to be cut off;
 * - anything else bad (a line that does not parse with data after it, a complete record that parses
 *   but is invalid or out of sequence) is damage.
 * Never throws.
 */
export function scanSessionLog(bytes: Uint8Array, id: string): LogScan {
  const records: SessionRecord[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(NEWLINE, offset);
    if (end === -1) {
      const reason = isNulOrNewline(bytes, offset) ? 'a run of NUL bytes' : 'a last line without "\\n"';
      return { ok: true, records, torn: { offset, bytes: bytes.length - offset, reason } };
    }
    const decoded = decodeLine(bytes.subarray(offset, end));
    if (!decoded.ok) {
      // A crash can only tear the end of the file, so a bad line is torn only if nothing real follows it.
      if (isNulOrNewline(bytes, end + 1)) {
        return { ok: true, records, torn: { offset, bytes: bytes.length - offset, reason: `a last line that does not parse (${decoded.reason})` } };
      }
      return { ok: false, damage: { line: records.length + 1, offset, reason: decoded.reason } };
    }
    // A line that parses was written whole: if it is wrong, no crash explains it.
    const expectedSeq = records.length + 1;
    let reason = checkSessionRecord(decoded.value, expectedSeq);
    if (reason === undefined && expectedSeq === 1 && (decoded.value as { id: unknown }).id !== id) {
      reason = `the session record names another session (${JSON.stringify((decoded.value as { id: unknown }).id)})`;
    }
    if (reason !== undefined) return { ok: false, damage: { line: expectedSeq, offset, reason } };
    records.push(deepFreeze(decoded.value as SessionRecord));
    offset = end + 1;
  }
  return { ok: true, records, torn: undefined };
}

function isNulOrNewline(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i += 1) {
    if (bytes[i] !== 0 && bytes[i] !== NEWLINE) return false;
  }
  return true;
}

