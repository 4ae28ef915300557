import { deepFreeze } from '@weir/core';
import { HarnessError, SESSION_RECORD_VERSION, type SessionEntry, type SessionMeta, type SessionRecord } from '@weir/core';
import { encodeRecord } from './record-codec.js';
import { checkSessionRecord } from './check-session-record.js';

/** A record ready to write: its line, and the frozen value a reader will parse back from that line. */
export interface PreparedRecord {
  readonly record: SessionRecord;
  readonly bytes: Uint8Array;
}

/**
 * Stamps an entry with `v`, `seq` and `at`, encodes it, and checks that what a reader will parse back
 * is a valid record: a record that could not be read back is never written. Throws `HarnessError`
 * `INVALID_SESSION_RECORD` (nothing written) when it is not.
 */
export function prepareRecord(entry: SessionEntry | SessionMeta, seq: number, at: string): PreparedRecord {
  const { type, ...rest } = entry;
  let bytes: Uint8Array;
  let parsed: unknown;
  try {
    bytes = encodeRecord({ v: SESSION_RECORD_VERSION, seq, type, at, ...rest });
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new HarnessError('INVALID_SESSION_RECORD', `Not written: the ${String(type)} record cannot be stored as JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  const reason = checkSessionRecord(parsed, seq);
  if (reason !== undefined) throw new HarnessError('INVALID_SESSION_RECORD', `Not written: invalid record (${reason}).`);
  return { record: deepFreeze(parsed as SessionRecord), bytes };
}
