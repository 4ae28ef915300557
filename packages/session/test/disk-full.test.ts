import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSessionStore, type SessionEntry } from '../src/index.js';
import { faultyFileSystem } from './fixtures/faulty-file-system.js';

// Write failures stop the session loudly and for good (never "persistence silently off", Codex PR
// #15095); what was written before stays readable, and a half-written record is cut on the next open.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-full-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const user = (content: string): SessionEntry => ({ type: 'message', message: { role: 'user', content } });

describe('a full disk and failing writes', () => {
  it.each(['ENOSPC', 'EIO'] as const)('a write failing with %s is SESSION_WRITE_FAILED, and no append is tried after it', async (code) => {
    const { fs, faults, counts } = faultyFileSystem();
    const session = await createFileSessionStore(dir, { fs }).create({ id: 's' });
    await session.append(user('before'), { sync: true });
    faults.write = code;
    const failure = session.append(user('lost'), { sync: true });
    await expect(failure).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED', cause: expect.objectContaining({ code }) });
    await expect(failure).rejects.toThrow(code);
    const writes = counts.write;

    delete faults.write; // the disk has room again: the session must still refuse
    await expect(session.append(user('after'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await expect(session.sync()).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(counts.write).toBe(writes);
    await session.close(); // releases the lock

    const reopened = await createFileSessionStore(dir).open('s');
    expect(reopened.records().map((r) => r.seq)).toEqual([1, 2]);
    await reopened.append(user('resumed'), { sync: true });
    await reopened.close();
  });

  it('a short write (the disk filled mid-record) fails the session; the next open cuts the half record', async () => {
    const { fs, faults } = faultyFileSystem();
    const session = await createFileSessionStore(dir, { fs }).create({ id: 's' });
    await session.append(user('whole'), { sync: true });
    faults.write = 'short';
    await expect(session.append(user('x'.repeat(10_000)))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await expect(session.append(user('next'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await session.close();

    const reopened = await createFileSessionStore(dir).open('s');
    expect(reopened.recovery).toMatchObject({ droppedBytes: expect.any(Number) });
    expect(reopened.records().map((r) => r.seq)).toEqual([1, 2]);
    await reopened.append(user('resumed'), { sync: true });
    await reopened.close();
    const lines = (await readFile(join(dir, 's.jsonl'), 'utf8')).split('\n');
    expect(lines.map((line) => line && JSON.parse(line).seq)).toEqual([1, 2, 3, '']);
  });

  it('a failing fdatasync is SESSION_WRITE_FAILED and stops the session', async () => {
    const { fs, faults, counts } = faultyFileSystem();
    const session = await createFileSessionStore(dir, { fs }).create({ id: 's' });
    faults.datasync = 'EIO';
    await expect(session.append(user('a'), { sync: true })).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED', cause: expect.objectContaining({ code: 'EIO' }) });
    const writes = counts.write;
    await expect(session.append(user('b'))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(counts.write).toBe(writes);
    await session.close();
  });

  it('a failure while creating leaves no session file and no lock', async () => {
    const { fs, faults } = faultyFileSystem();
    const store = createFileSessionStore(dir, { fs });
    faults.write = 'ENOSPC';
    await expect(store.create({ id: 's' })).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(await readdir(dir)).toEqual([]);
    delete faults.write;
    const session = await store.create({ id: 's' });
    await session.close();
  });
});
