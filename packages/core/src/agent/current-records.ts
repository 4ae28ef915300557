import type { SessionRecord } from './session-record.js';

/** One record on the current line of the conversation, and the one before it on that line. */
interface LineNode {
  readonly record: SessionRecord;
  readonly previous: LineNode | undefined;
}

/**
 * The records on the conversation's current line, oldest first: every record, except that a
 * `rewind` record sets the line back to what it was just after its `toSeq` (the records between
 * leave the line; they stay in the file). A redo is one more rewind, to the record before the rewind
 * it undoes, so the line is again what it was then. Without a rewind record, `records` itself is
 * returned (no copy). Never throws; a `toSeq` that is not an earlier seq is ignored.
 */
export function currentRecords(records: readonly SessionRecord[]): readonly SessionRecord[] {
  if (!records.some((record) => record.type === 'rewind')) return records;
  // A persistent list: the line after record k is remembered as a pointer, so a rewind is a jump.
  const lineAfter: (LineNode | undefined)[] = [];
  let head: LineNode | undefined;
  for (const record of records) {
    if (record.type === 'rewind') {
      if (Number.isInteger(record.toSeq) && record.toSeq >= 1 && record.toSeq < record.seq) head = lineAfter[record.toSeq];
    } else {
      head = { record, previous: head };
    }
    lineAfter[record.seq] = head;
  }
  const line: SessionRecord[] = [];
  for (let node = head; node !== undefined; node = node.previous) line.push(node.record);
  return line.reverse();
}
