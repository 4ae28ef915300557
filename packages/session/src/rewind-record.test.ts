import { describe, expect, it } from 'vitest';
import { currentRecords, rewindTarget, sessionTurns, type Message, type SessionEntry, type SessionRecord } from '@weir/core';
import { checkSessionRecord } from './check-session-record.js';
import { prepareRecord } from './prepare-record.js';
import { rebuildHistory } from './rebuild-history.js';

const AT = '2025-01-01T00:00:00.000Z';

function log(...entries: SessionEntry[]): SessionRecord[] {
  return [prepareRecord({ type: 'session', id: 's', created: AT }, 1, AT).record, ...entries.map((entry, i) => prepareRecord(entry, i + 2, AT).record)];
}
const msg = (message: Message): SessionEntry => ({ type: 'message', message });
const turn = (n: number): SessionEntry[] => [msg({ role: 'user', content: `q${n}` }), msg({ role: 'assistant', content: `a${n}` }), { type: 'turn_end', reason: 'stop' }];
const contents = (records: readonly SessionRecord[]) => rebuildHistory(records).messages.map((m) => m.content);

describe('currentRecords and sessionTurns', () => {
  // seq: 1 session, 2 system, 3-5 turn 1, 6-8 turn 2, 9-11 turn 3
  const three = [msg({ role: 'system', content: 'sys' }), ...turn(1), ...turn(2), ...turn(3)];

  it('lists the turns with their first and last records', () => {
    expect(sessionTurns(log(...three)).map(({ turn, seq, lastSeq, prompt }) => ({ turn, seq, lastSeq, prompt }))).toEqual([
      { turn: 1, seq: 3, lastSeq: 5, prompt: 'q1' },
      { turn: 2, seq: 6, lastSeq: 8, prompt: 'q2' },
      { turn: 3, seq: 9, lastSeq: 11, prompt: 'q3' },
    ]);
    expect(rewindTarget(log(...three), 1)).toBe(5);
    expect(rewindTarget(log(...three), 0)).toBe(2);
    expect(rewindTarget(log(...three), 3)).toBeUndefined();
    expect(rewindTarget(log(...three), -1)).toBeUndefined();
  });

  it('cuts the history at a rewind, goes on after it, and a redo puts the cut turns back', () => {
    const cut = log(...three, { type: 'rewind', toSeq: 5 });
    expect(contents(cut)).toEqual(['sys', 'q1', 'a1']);
    expect(sessionTurns(cut).map((t) => t.prompt)).toEqual(['q1']);
    expect(rebuildHistory(cut).turnOpen).toBe(false);

    const redone = log(...three, { type: 'rewind', toSeq: 5 }, { type: 'rewind', toSeq: 11, undoes: 12 });
    expect(contents(redone)).toEqual(['sys', 'q1', 'a1', 'q2', 'a2', 'q3', 'a3']);

    const branched = log(...three, { type: 'rewind', toSeq: 5 }, ...turn(4));
    expect(contents(branched)).toEqual(['sys', 'q1', 'a1', 'q4', 'a4']);
    expect(sessionTurns(branched).map((t) => [t.turn, t.prompt])).toEqual([[1, 'q1'], [2, 'q4']]);
    // A rewind of the branch to turn 1 again: the line after record 5, then nothing.
    const again = [...branched, prepareRecord({ type: 'rewind', toSeq: rewindTarget(branched, 1)! }, branched.length + 1, AT).record];
    expect(contents(again)).toEqual(['sys', 'q1', 'a1']);
  });

  it('returns the records themselves when nothing was rewound', () => {
    const records = log(...three);
    expect(currentRecords(records)).toBe(records);
  });

  it('refuses a rewind record that does not point back', () => {
    const base = { v: 1, type: 'rewind', at: AT, seq: 7 };
    expect(checkSessionRecord({ ...base, toSeq: 3 }, 7)).toBeUndefined();
    expect(checkSessionRecord({ ...base, toSeq: 7 }, 7)).toMatch(/toSeq/);
    expect(checkSessionRecord({ ...base, toSeq: '3' }, 7)).toMatch(/toSeq/);
    expect(checkSessionRecord({ ...base, toSeq: 3, undoes: 9 }, 7)).toMatch(/undoes/);
  });
});
