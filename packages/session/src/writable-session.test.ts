import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from './silent-logger.js';
import { prepareRecord } from './prepare-record.js';
import type { SessionRecord } from '@weir/core';
import { WritableSession, type RecordSink } from './writable-session.js';

const AT = '2025-01-01T00:00:00.000Z';
const user = (content: string) => ({ type: 'message', message: { role: 'user', content } }) as const;

function setup(sink: Partial<RecordSink> = {}) {
  const written: SessionRecord[] = [];
  const calls: string[] = [];
  const full: RecordSink = {
    write: sink.write ?? (async (_bytes, record) => void (calls.push(`write ${record.seq}`), written.push(record))),
    datasync: sink.datasync ?? (async () => void calls.push('sync')),
    close: sink.close ?? (async () => void calls.push('close')),
  };
  const session = new WritableSession({
    id: 's',
    epoch: 1,
    records: [prepareRecord({ type: 'session', id: 's', created: AT }, 1, AT).record],
    sink: full,
    now: () => new Date(AT),
    logger: silentLogger(),
  });
  return { session, written, calls };
}

const enospc = () => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });

describe('WritableSession', () => {
  it('numbers records in call order, even when appends are not awaited one by one', async () => {
    const { session, written } = setup();
    const records = await Promise.all([session.append(user('a')), session.append(user('b')), session.append(user('c'))]);
    expect(records.map((r) => r.seq)).toEqual([2, 3, 4]);
    expect(written.map((r) => r.seq)).toEqual([2, 3, 4]);
    expect(session.records().map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it('syncs only when asked, and once for everything written before', async () => {
    const { session, calls } = setup();
    await session.append(user('a'));
    await session.append(user('b'), { sync: true });
    await session.sync(); // nothing new: no syscall
    expect(calls).toEqual(['write 2', 'write 3', 'sync']);
  });

  it('returns frozen records stamped with v, seq and at', async () => {
    const { session } = setup();
    const record = await session.append(user('a'));
    expect(record).toEqual({ v: 1, seq: 2, type: 'message', at: AT, message: { role: 'user', content: 'a' } });
    expect(Object.isFrozen(record)).toBe(true);
  });

  it('after a failed write, rejects that append and every later one without writing again', async () => {
    const write = vi.fn(async () => {
      throw enospc();
    });
    const { session } = setup({ write });
    await expect(session.append(user('a'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED', cause: expect.objectContaining({ code: 'ENOSPC' }) });
    await expect(session.append(user('b'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await expect(session.sync()).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(write).toHaveBeenCalledTimes(1);
    expect(session.records()).toHaveLength(1);
    await expect(session.close()).resolves.toBeUndefined();
  });

  it('rejects appends queued behind a failing one', async () => {
    let fail = false;
    const { session, written } = setup({
      write: async (_bytes, record) => {
        if (fail) throw enospc();
        written.push(record);
      },
    });
    await session.append(user('ok'));
    fail = true;
    const outcomes = await Promise.allSettled([session.append(user('a')), session.append(user('b')), session.append(user('c'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(written.map((r) => r.seq)).toEqual([2]);
  });

  it('after a failed sync, refuses further appends', async () => {
    const { session } = setup({ datasync: async () => Promise.reject(Object.assign(new Error('I/O error'), { code: 'EIO' })) });
    await expect(session.append(user('a'), { sync: true })).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await expect(session.append(user('b'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
  });

  it('refuses an invalid entry without writing it, and stays usable', async () => {
    const { session, written } = setup();
    await expect(session.append({ type: 'message', message: { role: 'robot', content: 'x' } } as never)).rejects.toMatchObject({
      code: 'INVALID_SESSION_RECORD',
    });
    await expect(session.append({ type: 'tool_call_started', callId: 'c', toolName: 't', arguments: { n: 1n } })).rejects.toMatchObject({
      code: 'INVALID_SESSION_RECORD',
    });
    await expect(session.append({ type: 'session', id: 's', created: AT } as never)).rejects.toMatchObject({ code: 'INVALID_SESSION_RECORD' });
    expect(written).toEqual([]);
    expect((await session.append(user('fine'))).seq).toBe(2);
  });

  it('close waits for queued appends, syncs them, closes once, and refuses appends after', async () => {
    const { session, calls } = setup();
    const pending = session.append(user('a'));
    const closing = session.close();
    await expect(pending).resolves.toMatchObject({ seq: 2 });
    await closing;
    await session.close();
    expect(calls).toEqual(['write 2', 'sync', 'close']);
    await expect(session.append(user('late'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
  });

  it('close reports a failing last sync and still closes', async () => {
    const close = vi.fn(async () => undefined);
    const { session } = setup({ datasync: async () => Promise.reject(Object.assign(new Error('I/O error'), { code: 'EIO' })), close });
    await session.append(user('a'));
    await expect(session.close()).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(close).toHaveBeenCalledTimes(1);
  });
});
