import { describe, expect, it } from 'vitest';
import type { Message, SessionEntry, SessionRecord } from '@weir/core';
import { checkSessionRecord } from './check-session-record.js';
import { pendingApprovalsOf } from './pending-approvals.js';
import { prepareRecord } from './prepare-record.js';
import { rebuildHistory } from './rebuild-history.js';

const AT = '2025-01-01T00:00:00.000Z';
const log = (...entries: SessionEntry[]): SessionRecord[] => [
  prepareRecord({ type: 'session', id: 's', created: AT }, 1, AT).record,
  ...entries.map((entry, i) => prepareRecord(entry, i + 2, AT).record),
];
const msg = (message: Message): SessionEntry => ({ type: 'message', message });
const asked = msg({ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'write', arguments: { n: 1 }, key: 'key-a' }, { id: 'b', name: 'read', arguments: {}, key: 'key-b' }] });
const request = (argsHash: string, args: unknown = { n: 1 }): SessionEntry => ({ type: 'approval_request', callId: 'a', callKey: 'key-a', toolName: 'write', tier: 'write', argsHash, arguments: args, reason: 'a write' });
const decision = (argsHash: string, value: 'allow' | 'deny'): SessionEntry => ({ type: 'approval_decision', callId: 'a', callKey: 'key-a', toolName: 'write', argsHash, decision: value });
const readResult: SessionEntry = { type: 'tool_result', callId: 'b', toolName: 'read', ok: true, content: 'read' };
const suspended: SessionEntry = { type: 'turn_end', reason: 'awaiting_approval' };

describe('a suspended turn in the records', () => {
  it('turn_end awaiting_approval keeps the waiting call open: pending with leave, the turn open, answered as unstarted otherwise', () => {
    const records = log(msg({ role: 'user', content: 'go' }), asked, request('h1'), readResult, suspended);
    const left = rebuildHistory(records, { pending: 'leave' });
    expect(left.pending.map((call) => call.id)).toEqual(['a']);
    expect(left.turnOpen).toBe(true);
    expect(left.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    const answered = rebuildHistory(records);
    expect(answered.pending).toEqual([]);
    expect(answered.interrupted.map((call) => [call.callId, call.started])).toEqual([['a', false]]);
  });

  it('the results a resume records after the suspension answer the call in its place', () => {
    const records = log(msg({ role: 'user', content: 'go' }), asked, request('h1'), readResult, suspended, decision('h1', 'allow'), { type: 'tool_call_started', callId: 'a', toolName: 'write', arguments: { n: 1 } }, { type: 'tool_result', callId: 'a', toolName: 'write', ok: true, content: 'wrote' });
    const history = rebuildHistory(records, { pending: 'leave' });
    expect(history.pending).toEqual([]);
    expect(history.messages.slice(2).map((message) => (message.role === 'tool' ? message.toolCallId : ''))).toEqual(['a', 'b']);
  });

  it('pendingApprovalsOf: a waiting request, then answered, then lapsed by a newer one for other arguments, then gone once the call has a result', () => {
    const base = [msg({ role: 'user', content: 'go' }), asked, request('h1'), readResult, suspended];
    expect(pendingApprovalsOf('s', log(...base))).toMatchObject([{ sessionId: 's', callId: 'a', callKey: 'key-a', toolName: 'write', tier: 'write', arguments: { n: 1 }, argumentsHash: 'h1', reason: 'a write', answer: undefined }]);
    expect(pendingApprovalsOf('s', log(...base, decision('h1', 'deny')))).toMatchObject([{ argumentsHash: 'h1', answer: { decision: 'deny' } }]);
    // A resume whose arguments came out otherwise asked again: only the newer request counts, unanswered.
    expect(pendingApprovalsOf('s', log(...base, decision('h1', 'allow'), request('h2', { n: 2 }), suspended))).toMatchObject([{ argumentsHash: 'h2', arguments: { n: 2 }, answer: undefined }]);
    expect(pendingApprovalsOf('s', log(...base, { type: 'tool_result', callId: 'a', toolName: 'write', ok: false, content: 'not run', error: { code: 'NOT_EXECUTED', message: 'not run' } }, msg({ role: 'user', content: 'next' })))).toEqual([]);
  });

  it('checks approval_request records: each field its type, the arguments present', () => {
    const good = { v: 1, seq: 2, at: AT, type: 'approval_request', callId: 'a', callKey: 'k', toolName: 't', tier: 'write', argsHash: 'h', arguments: {} };
    expect(checkSessionRecord(good, 2)).toBeUndefined();
    expect(checkSessionRecord({ ...good, arguments: undefined }, 2)).toMatch(/"arguments" is missing/);
    expect(checkSessionRecord({ ...good, callKey: '' }, 2)).toMatch(/callKey/);
    expect(checkSessionRecord({ ...good, tier: 3 }, 2)).toMatch(/"tier" must be a string/);
    expect(checkSessionRecord({ ...good, reason: 1 }, 2)).toMatch(/"reason"/);
  });
});
