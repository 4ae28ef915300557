import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSessionStore } from '../src/index.js';

// Fencing across processes: a live writer in another process, taken over; what it writes after that
// is refused and never read, although its file descriptor still points at (the old inode of) the log.
const writer = fileURLToPath(new URL('./fixtures/fenced-writer.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

let dir: string;
let child: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-fence-'));
});
afterEach(async () => {
  child?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('fencing a writer in another process (file store)', () => {
  it('a live writer taken over gets SESSION_FENCED, and its record is not in the log', { timeout: 30_000 }, async () => {
    const store = createFileSessionStore(dir);
    const first = await store.create({ id: 's' });
    await first.close();
    child = spawn(process.execPath, ['--conditions=@weir/source', '--import', tsx, writer, dir, 's'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: string[] = [];
    const waiters: ((line: string) => void)[] = [];
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) (waiters.shift() ?? ((l: string) => lines.push(l)))(line);
    });
    const next = () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiters.push(resolve)));
    const say = async (text: string) => {
      child!.stdin!.write(`${text}\n`);
      return next();
    };

    const ready = await next();
    expect(ready).toMatch(/^ready \d+$/);
    expect(await say('before the takeover')).toBe('ok 2');
    await expect(store.open('s')).rejects.toMatchObject({ code: 'SESSION_LOCKED' }); // the child is alive
    const taken = await store.open('s', { takeOver: true });
    expect(taken.epoch).toBeGreaterThan(Number(ready.split(' ')[1]));
    expect(await say('after the takeover')).toBe('refused SESSION_FENCED');
    expect(await say('and again')).toBe('refused SESSION_FENCED');
    await taken.append({ type: 'message', message: { role: 'user', content: 'the new writer' } }, { sync: true });
    await taken.close();
    const contents = (await store.read('s')).slice(1).map((record) => (record.type === 'message' ? record.message.content : record.type));
    expect(contents).toEqual(['before the takeover', 'the new writer']);
  });
});
