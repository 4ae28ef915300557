import { describe, expect, it } from 'vitest';
import { argumentsHash, INTERRUPTED_CALL_CONTENT, type Message, type SessionEntry, type SessionRecord, UNSTARTED_CALL_CONTENT } from '@weir/core';
import { prepareRecord } from './prepare-record.js';
import { rebuildHistory } from './rebuild-history.js';

const AT = '2025-01-01T00:00:00.000Z';

function log(...entries: SessionEntry[]): SessionRecord[] {
  return [
    prepareRecord({ type: 'session', id: 's', created: AT }, 1, AT).record,
    ...entries.map((entry, i) => prepareRecord(entry, i + 2, AT).record),
  ];
}

const msg = (message: Message): SessionEntry => ({ type: 'message', message });
const user = (content: string) => msg({ role: 'user', content });
const calls = (...ids: string[]) => msg({ role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'write', arguments: { id } })) });
const started = (callId: string): SessionEntry => ({ type: 'tool_call_started', callId, toolName: 'write', arguments: { id: callId } });
const result = (callId: string, ok = true): SessionEntry => ({
  type: 'tool_result',
  callId,
  toolName: 'write',
  ok,
  content: `result ${callId}`,
  ...(ok ? {} : { error: { code: 'EXECUTION_FAILED', message: 'no' } }),
});
const turnEnd: SessionEntry = { type: 'turn_end', reason: 'stop' };

const answer = (id: string, content = `result ${id}`, isError = false) => ({ role: 'tool', toolCallId: id, toolName: 'write', content, isError });

describe('rebuildHistory', () => {
  it("puts a result's parts on its tool message, and none on a text-only result", () => {
    const parts = [{ type: 'text', text: 'shot' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] as const;
    const history = rebuildHistory(log(user('hi'), calls('a', 'b'), { type: 'tool_result', callId: 'a', toolName: 'write', ok: true, content: 'shot', parts }, result('b')));
    expect(history.messages.slice(2)).toEqual([{ ...answer('a', 'shot'), parts }, answer('b')]);
    expect(Object.hasOwn(history.messages[3]!, 'parts')).toBe(false);
  });

  it('turns a complete turn into messages, results as tool messages', () => {
    const history = rebuildHistory(
      log(
        msg({ role: 'system', content: 'be brief' }),
        user('hi'),
        calls('a', 'b'),
        started('a'),
        result('a'),
        started('b'),
        result('b', false),
        msg({ role: 'assistant', content: 'done' }),
        turnEnd,
      ),
    );
    expect(history.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'b' })] },
      answer('a'),
      answer('b', 'result b', true),
      { role: 'assistant', content: 'done' },
    ]);
    expect(history.interrupted).toEqual([]);
    expect(history.turnOpen).toBe(false);
  });

  it('answers a call that started and has no result as interrupted with an unknown outcome', () => {
    const history = rebuildHistory(log(user('hi'), calls('a'), started('a')));
    expect(history.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'a', toolName: 'write', content: INTERRUPTED_CALL_CONTENT, isError: true });
    expect(history.interrupted).toEqual([{ callId: 'a', toolName: 'write', arguments: { id: 'a' }, started: true }]);
    expect(history.turnOpen).toBe(true);
  });

  it('answers a call that never started as not run', () => {
    const history = rebuildHistory(log(user('hi'), calls('a', 'b'), started('a'), result('a')));
    expect(history.messages.slice(-2)).toEqual([answer('a'), { role: 'tool', toolCallId: 'b', toolName: 'write', content: UNSTARTED_CALL_CONTENT, isError: true }]);
    expect(history.interrupted).toEqual([{ callId: 'b', toolName: 'write', arguments: { id: 'b' }, started: false }]);
  });

  it('puts answers in call order right after their assistant message, before what came later', () => {
    const history = rebuildHistory(log(user('hi'), calls('a', 'b', 'c'), started('c'), result('c'), started('a'), user('are you there?')));
    expect(history.messages.map((m) => (m.role === 'tool' ? `${m.toolCallId}:${m.content}` : m.role))).toEqual([
      'user',
      'assistant',
      `a:${INTERRUPTED_CALL_CONTENT}`,
      `b:${UNSTARTED_CALL_CONTENT}`,
      'c:result c',
      'user',
    ]);
  });

  it("with pending: 'leave', leaves the last message's unstarted calls for the agent to run", () => {
    const records = log(user('hi'), calls('a', 'b', 'c'), started('a'), result('a'), started('b'));
    const history = rebuildHistory(records, { pending: 'leave' });
    expect(history.pending.map((call) => call.id)).toEqual(['c']);
    expect(history.messages.slice(-2)).toEqual([answer('a'), expect.objectContaining({ toolCallId: 'b', content: INTERRUPTED_CALL_CONTENT })]);
    // Unstarted calls of an earlier, closed turn are still answered.
    const closed = rebuildHistory(log(calls('x'), turnEnd, user('next')), { pending: 'leave' });
    expect(closed.pending).toEqual([]);
    expect(closed.messages[1]).toMatchObject({ toolCallId: 'x', content: UNSTARTED_CALL_CONTENT });
  });

  it('accepts tool message records as answers', () => {
    const history = rebuildHistory(log(calls('a'), msg({ role: 'tool', toolCallId: 'a', toolName: 'write', content: 'ok' })));
    expect(history.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'a', toolName: 'write', content: 'ok' });
    expect(history.interrupted).toEqual([]);
  });

  it('leaves out results that answer no open call, and second answers', () => {
    const history = rebuildHistory(log(user('hi'), result('ghost'), calls('a'), result('a'), result('a', false), turnEnd, result('a')));
    expect(history.messages).toEqual([{ role: 'user', content: 'hi' }, expect.objectContaining({ role: 'assistant' }), answer('a')]);
  });

  it('returns stored approval decisions by call key and arguments hash', () => {
    const hash = argumentsHash({ path: 'a.txt' });
    const history = rebuildHistory(
      log(calls('a'), { type: 'approval_decision', callId: 'a', callKey: 'key-a', toolName: 'write', argsHash: hash, decision: 'allow' }, started('a')),
    );
    expect(history.approvals.find('key-a', hash)).toMatchObject({ decision: 'allow', toolName: 'write' });
    expect(history.approvals.find('key-a', argumentsHash({ path: 'b.txt' }))).toBeUndefined();
    // The model's id is not the key: a lookup by it finds nothing.
    expect(history.approvals.find('a', hash)).toBeUndefined();
    expect(history.approvals.size).toBe(1);
  });

  it('counts the last of two decisions for the same call and arguments', () => {
    const history = rebuildHistory(
      log(
        { type: 'approval_decision', callId: 'a', callKey: 'key-a', toolName: 'write', argsHash: 'h', decision: 'allow' },
        { type: 'approval_decision', callId: 'a', callKey: 'key-a', toolName: 'write', argsHash: 'h', decision: 'deny', message: 'changed my mind' },
      ),
    );
    expect(history.approvals.find('key-a', 'h')).toMatchObject({ decision: 'deny', message: 'changed my mind' });
  });

  it('is empty and closed for a session with only its session record', () => {
    const history = rebuildHistory(log());
    expect(history).toMatchObject({ messages: [], interrupted: [], pending: [], turnOpen: false });
  });
});
