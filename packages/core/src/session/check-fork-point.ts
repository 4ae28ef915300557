import { HarnessError } from '../harness-error.js';
import type { SessionRecord } from './session-record.js';

/** The last seq a fork copies. Throws `HarnessError` `SESSION_NOT_FOUND` when the source has no such record. */
export function checkForkPoint(sourceId: string, source: readonly SessionRecord[], throughSeq: number | undefined): number {
  const last = source.length;
  if (throughSeq === undefined) return last;
  if (!Number.isInteger(throughSeq) || throughSeq < 1 || throughSeq > last) {
    throw new HarnessError('SESSION_NOT_FOUND', `Session ${sourceId} has no record ${String(throughSeq)} to fork from (it has 1 to ${last}).`);
  }
  return throughSeq;
}
