import { describe, expect, it } from 'vitest';
import { encodeRecord } from './record-codec.js';
import { scanSessionLog } from './scan-session-log.js';

const meta = { v: 1, seq: 1, type: 'session', at: '2025-01-01T00:00:00.000Z', id: 's1', created: '2025-01-01T00:00:00.000Z' };
const user = (seq: number, content = `hello ${seq}`) => ({ v: 1, seq, type: 'message', at: '2025-01-01T00:00:01.000Z', message: { role: 'user', content } });

const bytes = (...parts: (object | string | Uint8Array)[]) =>
  Buffer.concat(parts.map((part) => (part instanceof Uint8Array ? part : typeof part === 'string' ? Buffer.from(part) : encodeRecord(part))));

const good = () => bytes(meta, user(2), user(3));

describe('scanSessionLog', () => {
  it('reads a clean log', () => {
    const scan = scanSessionLog(good(), 's1');
    expect(scan).toMatchObject({ ok: true, torn: undefined });
    expect(scan.ok && scan.records.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it('reads an empty log as no records', () => {
    expect(scanSessionLog(new Uint8Array(0), 's1')).toEqual({ ok: true, records: [], torn: undefined });
  });

  it('reports a last line without "\\n" as a torn tail at the end of the last good record', () => {
    const clean = good();
    const line = encodeRecord(user(4));
    const scan = scanSessionLog(bytes(clean, line.subarray(0, line.length - 1)), 's1');
    expect(scan).toMatchObject({ ok: true, torn: { offset: clean.length, bytes: line.length - 1 } });
    expect(scan.ok && scan.records).toHaveLength(3);
  });

  it('reports a cut in the middle of a multi-byte character as torn', () => {
    const line = encodeRecord(user(4, '😀😀😀'));
    const cut = line.indexOf(0xf0) + 2;
    expect(scanSessionLog(bytes(good(), line.subarray(0, cut)), 's1')).toMatchObject({ ok: true, torn: { offset: good().length } });
  });

  it('reports a complete last line that does not parse as torn', () => {
    expect(scanSessionLog(bytes(good(), '{"v":1,"seq":4,"ty\n'), 's1')).toMatchObject({ ok: true, torn: { offset: good().length } });
  });

  it.each([
    ['NUL bytes only', new Uint8Array(4096)],
    ['NUL bytes ending in a newline', Buffer.concat([new Uint8Array(100), Buffer.from('\n')])],
    ['NUL bytes and newlines', Buffer.from('\0\0\n\0\0\0\n\0')],
    ['a fragment then NUL bytes', Buffer.concat([Buffer.from('{"v":1,"se'), new Uint8Array(300)])],
    ['a fragment, NUL bytes, a newline, NUL bytes', Buffer.concat([Buffer.from('{"v":1,"se'), new Uint8Array(300), Buffer.from('\n'), new Uint8Array(50)])],
  ])('reports a tail of %s as torn', (_name, tail) => {
    const scan = scanSessionLog(bytes(good(), tail), 's1');
    expect(scan).toMatchObject({ ok: true, torn: { offset: good().length, bytes: tail.length } });
    expect(scan.ok && scan.records).toHaveLength(3);
  });

  it('reports a bad line followed by a good one as damage, not a torn tail', () => {
    const scan = scanSessionLog(bytes(meta, user(2), '{"v":1,"seq":3,"ty\n', user(4)), 's1');
    expect(scan).toEqual({ ok: false, damage: { line: 3, offset: bytes(meta, user(2)).length, reason: 'not valid JSON' } });
  });

  it('reports NUL bytes followed by a record as damage', () => {
    expect(scanSessionLog(bytes(meta, new Uint8Array(10), '\n', user(2)), 's1')).toMatchObject({ ok: false, damage: { line: 2 } });
  });

  it.each([
    ['a duplicate seq', [meta, user(2), user(2)], /duplicate/],
    ['a missing seq', [meta, user(2), user(4)], /missing seq 3/],
    ['a first record that is not the session record', [user(1)], /first record/],
    ['a session record for another session', [{ ...meta, id: 'other' }], /another session/],
    ['an unknown version', [meta, { ...user(2), v: 2 }], /version/],
    ['an unknown record type', [meta, { ...user(2), type: 'mystery' }], /unknown record type/],
    ['a message with a bad role', [meta, { ...user(2), message: { role: 'robot', content: '' } }], /role/],
    ['a JSON value that is not an object', [meta, '[1,2]\n'], /JSON object/],
  ])('reports %s as damage even on the last line', (_name, parts, reason) => {
    const scan = scanSessionLog(bytes(...(parts as (object | string)[])), 's1');
    expect(scan.ok).toBe(false);
    if (!scan.ok) expect(scan.damage.reason).toMatch(reason);
  });

  it('freezes the records it returns', () => {
    const scan = scanSessionLog(good(), 's1');
    expect(scan.ok && Object.isFrozen(scan.records[1]) && Object.isFrozen((scan.records[1] as { message: object }).message)).toBe(true);
  });
});
