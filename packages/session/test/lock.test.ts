import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../src/silent-logger.js';
import { createFileSessionStore } from '../src/index.js';

// One writer per session, across processes: a live holder refuses others; a dead holder's lock is
// stale and taken over.
const holder = fileURLToPath(new URL('./fixtures/hold-session.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

let dir: string;
let children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-lock-'));
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children = [];
  await rm(dir, { recursive: true, force: true });
});

/** Starts a process that holds the session; resolves once it does. */
function hold(id: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=@weir/source', '--import', tsx, holder, dir, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => String(chunk).includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`holder exited (${code}): ${err}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.kill('SIGKILL');
  });

describe('the session lock across processes', () => {
  it('refuses a second writer while another process holds the session, and takes over once it is dead', { timeout: 30_000 }, async () => {
    const logger = { ...silentLogger(), warn: vi.fn() };
    const store = createFileSessionStore(dir, { logger });
    await (await store.create({ id: 's' })).close();
    const child = await hold('s');

    await expect(store.open('s')).rejects.toMatchObject({ code: 'SESSION_LOCKED', message: expect.stringContaining(String(child.pid)) });
    expect(JSON.parse(await readFile(join(dir, 's.lock'), 'utf8'))).toMatchObject({ pid: child.pid });
    expect(await store.read('s')).toHaveLength(2); // readers need no lock

    await killed(child); // SIGKILL: no cleanup ran, the lock file is still there
    expect(JSON.parse(await readFile(join(dir, 's.lock'), 'utf8'))).toMatchObject({ pid: child.pid });
    const session = await store.open('s');
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ stalePid: child.pid }), expect.stringContaining('stale'));
    expect(JSON.parse(await readFile(join(dir, 's.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await session.append({ type: 'message', message: { role: 'user', content: 'mine now' } }, { sync: true });
    await session.close();
    expect((await store.read('s')).map((r) => r.seq)).toEqual([1, 2, 3]);
  });
});
