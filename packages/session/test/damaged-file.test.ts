import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../src/silent-logger.js';
import { createFileSessionStore, type SessionEntry, type SessionStore } from '../src/index.js';
import { wireProblem } from './fixtures/wire-check.js';

// What a crash leaves (a torn tail, a run of NUL bytes) is cut off before the next append and logged;
// damage a crash cannot explain stops the open loudly, changes nothing and keeps a quarantined copy.
let dir: string;
let file: string;
let store: SessionStore;
const spyLogger = () => ({ ...silentLogger(), warn: vi.fn(), error: vi.fn() });
let logger: ReturnType<typeof spyLogger>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-damage-'));
  file = join(dir, 's.jsonl');
  logger = spyLogger();
  store = createFileSessionStore(dir, { logger });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const user = (content: string): SessionEntry => ({ type: 'message', message: { role: 'user', content } });

/** A session of a user message and a tool call that started (seq 1 to 4), closed. Returns its bytes. */
async function written(): Promise<Buffer> {
  const session = await store.create({ id: 's' });
  await session.append(user('hello'));
  await session.append({ type: 'message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'rm', arguments: {} }] } });
  await session.append({ type: 'tool_call_started', callId: 'c1', toolName: 'rm', arguments: {} }, { sync: true });
  await session.close();
  return readFile(file);
}

async function expectRecoveredTo(good: Buffer) {
  const session = await store.open('s');
  expect(session.recovery).toMatchObject({ offset: good.length });
  expect(session.records().map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  expect(await readFile(file)).toEqual(good); // cut before any append
  expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 's', offset: good.length }), expect.stringContaining('torn tail'));
  // The next record starts on its own line: nothing glued to the fragment.
  await session.append(user('after the crash'), { sync: true });
  await session.close();
  const again = await store.open('s');
  expect(again.recovery).toBeUndefined();
  expect(again.records().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
  expect(wireProblem(again.history().messages)).toBeUndefined();
  await again.close();
}

describe('a torn tail', () => {
  it('cuts a half-written last record (no "\\n") on open, before the next append', async () => {
    const good = await written();
    await appendFile(file, '{"v":1,"seq":5,"type":"message","at":"2025-01-01T00:00:00.000Z","message":{"role":"us');
    await expectRecoveredTo(good);
  });

  it('cuts a last line that does not parse', async () => {
    const good = await written();
    await appendFile(file, '{"v":1,"seq":5,"ty}\n');
    await expectRecoveredTo(good);
  });

  it('cuts a run of NUL bytes (ext4 delayed allocation after a power cut)', async () => {
    const good = await written();
    await appendFile(file, Buffer.alloc(8192));
    await expectRecoveredTo(good);
  });

  it('cuts NUL bytes that end a partly written record', async () => {
    const good = await written();
    await appendFile(file, Buffer.concat([Buffer.from('{"v":1,"seq":5,"type":"mess'), Buffer.alloc(4000), Buffer.from('\n'), Buffer.alloc(100)]));
    await expectRecoveredTo(good);
  });

  it('answers the interrupted call so the history is valid for the provider', async () => {
    await written();
    await appendFile(file, '{"v":1,"seq":5,"type":"tool_res');
    const session = await store.open('s');
    const history = session.history();
    expect(history.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true, content: expect.stringContaining('outcome unknown') });
    expect(history.interrupted).toEqual([expect.objectContaining({ callId: 'c1', started: true })]);
    await session.close();
  });

  it('reading does not repair: read() ignores the torn tail and leaves the file as it is', async () => {
    const good = await written();
    await appendFile(file, '{"v":1,"se');
    expect(await store.read('s')).toHaveLength(4);
    expect((await readFile(file)).length).toBe(good.length + 10);
  });

  it('rewrites the session record of a file left empty by a crash during create', async () => {
    await (await store.create({ id: 's' })).close();
    await truncate(file, 0);
    const session = await store.open('s');
    expect(session.records()).toEqual([expect.objectContaining({ seq: 1, type: 'session', id: 's' })]);
    await session.close();
  });
});

describe('damage in the middle', () => {
  async function damage(mutate: (lines: string[]) => string[]) {
    const good = await written();
    const lines = good.toString('utf8').split('\n');
    const damaged = Buffer.from(mutate(lines).join('\n'));
    await writeFile(file, damaged);
    return damaged;
  }

  async function expectCorrupt(damaged: Buffer, line: number) {
    await expect(store.open('s')).rejects.toMatchObject({ code: 'SESSION_CORRUPT', message: expect.stringContaining(`line ${line}`) });
    expect(await readFile(file)).toEqual(damaged); // nothing changed, nothing dropped
    const copies = await readdir(join(dir, 'quarantine'));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatch(/^s\.[0-9a-f]{16}\.jsonl$/);
    expect(await readFile(join(dir, 'quarantine', copies[0]!))).toEqual(damaged);
    expect(logger.error).toHaveBeenCalled();
    // Trying again neither fails differently nor piles up copies; read() refuses too; list() flags it.
    await expect(store.open('s')).rejects.toMatchObject({ code: 'SESSION_CORRUPT' });
    await expect(store.read('s')).rejects.toMatchObject({ code: 'SESSION_CORRUPT' });
    expect(await readdir(join(dir, 'quarantine'))).toHaveLength(1);
    expect(await store.list()).toEqual([expect.objectContaining({ id: 's', corrupt: true })]);
    // The lock was released: once repaired, it opens.
    await writeFile(file, (await readFile(file, 'utf8')).split('\n').slice(0, line - 1).join('\n') + '\n');
    const repaired = await store.open('s');
    expect(repaired.records()).toHaveLength(line - 1);
    await repaired.close();
  }

  it('stops on a damaged line with good records after it, and keeps a copy', async () => {
    const damaged = await damage((lines) => lines.map((line, i) => (i === 2 ? line.slice(0, 20) + '#' + line.slice(21) : line)));
    await expectCorrupt(damaged, 3);
  });

  it('stops on NUL bytes in the middle', async () => {
    const damaged = await damage((lines) => lines.map((line, i) => (i === 1 ? '\0'.repeat(line.length) : line)));
    await expectCorrupt(damaged, 2);
  });

  it('stops on a duplicated sequence number', async () => {
    const damaged = await damage((lines) => [...lines.slice(0, 3), lines[2]!, ...lines.slice(3)]);
    await expectCorrupt(damaged, 4);
  });

  it('stops on a missing sequence number', async () => {
    const damaged = await damage((lines) => [...lines.slice(0, 2), ...lines.slice(3)]);
    await expectCorrupt(damaged, 3);
  });
});
