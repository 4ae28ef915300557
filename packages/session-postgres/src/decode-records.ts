import type { SessionRecord } from '@weir/core';
import { scanSessionLog } from '@weir/session/store-kit';

export type DecodedRecords =
  | { readonly ok: true; readonly records: readonly SessionRecord[] }
  | { readonly ok: false; readonly line: number; readonly reason: string };

/**
 * Checks a session's stored bodies (oldest first) with the file store's rules: each a valid record,
 * numbered from 1, the first the session record of `id`. A database has no torn tail (each body was
 * committed whole), so any bad body is damage, the last one included. Never throws.
 */
export function decodeRecords(id: string, bodies: readonly string[]): DecodedRecords {
  const scan = scanSessionLog(new TextEncoder().encode(bodies.map((body) => `${body}\n`).join('')), id);
  if (!scan.ok) return { ok: false, line: scan.damage.line, reason: scan.damage.reason };
  if (scan.torn !== undefined) return { ok: false, line: scan.records.length + 1, reason: scan.torn.reason };
  return { ok: true, records: scan.records };
}
