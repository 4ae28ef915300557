import { deepFreeze } from '@weir/core';
import { HarnessError, SESSION_RECORD_VERSION, type SessionEntry, type SessionMeta, type SessionRecord } from '@weir/core';
import { encodeRecord } from './record-codec.js';
import { checkSessionRecord } from './check-session-record.js';
import { externalizeImages, inlineImages, type ImageBlob } from './image-blobs.js';

/** A record ready to write: its line, the images its line names (to be written first), and the frozen record as a reader gets it back. */
export interface PreparedRecord {
  readonly record: SessionRecord;
  readonly bytes: Uint8Array;
  /** Empty unless `storeImages` was asked and the record holds inline images. */
  readonly blobs: readonly ImageBlob[];
}

/**
 * Stamps an entry with `v`, `seq` and `at`, encodes it, and checks that what a reader will parse back
 * is a valid record: a record that could not be read back is never written. Throws `HarnessError`
 * `INVALID_SESSION_RECORD` (nothing written) when it is not.
 *
 * With `storeImages`, the line names each inline image by a blob reference (see `externalizeImages`)
 * and the record returned carries the images inline again, as a reader that resolves the blobs gets it.
 */
export function prepareRecord(entry: SessionEntry | SessionMeta, seq: number, at: string, storeImages = false): PreparedRecord {
  const { type, ...rest } = entry;
  let bytes: Uint8Array;
  let parsed: unknown;
  let blobs: readonly ImageBlob[] = [];
  try {
    const full = { v: SESSION_RECORD_VERSION, seq, type, at, ...rest };
    let stored: Record<string, unknown> = full;
    if (storeImages) ({ stored, blobs } = externalizeImages(full));
    bytes = encodeRecord(stored);
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new HarnessError('INVALID_SESSION_RECORD', `Not written: the ${String(type)} record cannot be stored as JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  const reason = checkSessionRecord(parsed, seq);
  if (reason !== undefined) throw new HarnessError('INVALID_SESSION_RECORD', `Not written: invalid record (${reason}).`);
  if (blobs.length > 0) {
    const data = new Map(blobs.map((blob) => [blob.hex, blob.data]));
    parsed = inlineImages(parsed as Record<string, unknown>, (hex) => ({ data: data.get(hex) as string }));
  }
  return { record: deepFreeze(parsed as SessionRecord), bytes, blobs };
}
