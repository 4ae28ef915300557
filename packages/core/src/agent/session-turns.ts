import type { SessionRecord } from './session-record.js';
import { currentRecords } from './current-records.js';

/** One turn of a session's current line: from a user message to the record before the next one. */
export interface SessionTurn {
  /** 1 for the first turn. */
  readonly turn: number;
  /** The seq of the user message that started it. */
  readonly seq: number;
  /** The seq of its last record on the current line (a rewind to this turn goes back to just after it). */
  readonly lastSeq: number;
  /** The user's text. */
  readonly prompt: string;
  /** When the user message was recorded (ISO 8601). */
  readonly at: string;
}

/**
 * The turns of the conversation's current line (rewinds applied), oldest first. A turn starts with
 * each user message (a resumed turn continues the one before). Never throws.
 */
export function sessionTurns(records: readonly SessionRecord[]): SessionTurn[] {
  const line = currentRecords(records);
  const turns: SessionTurn[] = [];
  let open: { seq: number; prompt: string; at: string } | undefined;
  let lastSeq = 0;
  for (const record of line) {
    if (record.type === 'message' && record.message.role === 'user') {
      if (open !== undefined) turns.push({ turn: turns.length + 1, ...open, lastSeq });
      open = { seq: record.seq, prompt: record.message.content, at: record.at };
    }
    lastSeq = record.seq;
  }
  if (open !== undefined) turns.push({ turn: turns.length + 1, ...open, lastSeq });
  return turns;
}

/**
 * The seq a conversation rewind to the end of turn `toTurn` goes back to: the last record before
 * turn `toTurn + 1` (for 0, the last record before the first turn). Undefined when the session has
 * no such turn, or nothing after it to cut.
 */
export function rewindTarget(records: readonly SessionRecord[], toTurn: number): number | undefined {
  const turns = sessionTurns(records);
  if (!Number.isInteger(toTurn) || toTurn < 0 || toTurn >= turns.length) return undefined;
  const line = currentRecords(records);
  const next = turns[toTurn]!;
  const index = line.findIndex((record) => record.seq === next.seq);
  return index > 0 ? line[index - 1]!.seq : undefined;
}
