import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from './silent-logger.js';
import { nodeSessionFileSystem } from './session-file-system.js';
import { acquireSessionLock, isProcessAlive } from './session-lock.js';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-lock-'));
  lock = join(dir, 's.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const options = (alive: (pid: number) => boolean, logger = silentLogger()) => ({ fs: nodeSessionFileSystem, logger, processAlive: alive });

describe('acquireSessionLock', () => {
  it('writes a lock holding this pid, and removes it on release (once)', async () => {
    const { release } = await acquireSessionLock(lock, options(() => true));
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
    await release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses with SESSION_LOCKED while a live process holds the lock', async () => {
    await acquireSessionLock(lock, options(() => true));
    await expect(acquireSessionLock(lock, options(() => true))).rejects.toMatchObject({ code: 'SESSION_LOCKED' });
    expect(await readdir(dir)).toEqual(['s.lock']); // no temp files left behind
  });

  it('takes over a lock whose pid is dead, and logs it', async () => {
    await writeFile(lock, `${JSON.stringify({ pid: 999_999_999, token: 'old' })}\n`);
    const logger = { ...silentLogger(), warn: vi.fn() };
    const { release } = await acquireSessionLock(lock, options((pid) => pid !== 999_999_999, logger));
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ stalePid: 999_999_999 }), expect.stringContaining('stale'));
    await release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock it cannot read (only a power cut leaves one)', async () => {
    await writeFile(lock, '');
    await expect(acquireSessionLock(lock, options(() => true))).resolves.toMatchObject({ tookOver: true });
  });

  it('does not remove a lock that another process has taken over', async () => {
    const { release } = await acquireSessionLock(lock, options(() => true));
    await writeFile(lock, `${JSON.stringify({ pid: 4242, token: 'theirs' })}\n`);
    await release();
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: 4242 });
  });

  it('with takeOver, replaces a live holder\'s lock, and the holder sees it is no longer held', async () => {
    const first = await acquireSessionLock(lock, options(() => true));
    expect(first.tookOver).toBe(false);
    await expect(first.stillHeld()).resolves.toBe(true);
    const second = await acquireSessionLock(lock, { ...options(() => true), takeOver: true });
    expect(second.tookOver).toBe(true);
    await expect(first.stillHeld()).resolves.toBe(false);
    await first.release(); // not ours any more: left alone
    await expect(second.stillHeld()).resolves.toBe(true);
    await second.release();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('isProcessAlive', () => {
  it('is true for this process and false for a pid that cannot exist', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 30)).toBe(false);
  });
});
