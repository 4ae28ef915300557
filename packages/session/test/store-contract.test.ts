import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '@weir/core';
import {
  createFileSessionStore,
  createMemorySessionStore,
  rebuildHistory,
  type SessionEntry,
  type SessionStore,
} from '../src/index.js';
import { wireProblem } from './fixtures/wire-check.js';

// Both stores keep the same contract; the file store also keeps it across store instances (a restart).
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

let clock = Date.UTC(2025, 0, 1);
const now = () => new Date((clock += 1000));

const stores: [string, () => Promise<{ store: SessionStore; restart: () => SessionStore; dir?: string }>][] = [
  [
    'memory',
    async () => {
      const store = createMemorySessionStore({ now });
      return { store, restart: () => store };
    },
  ],
  [
    'file',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'weir-store-'));
      dirs.push(dir);
      return { store: createFileSessionStore(dir, { now }), restart: () => createFileSessionStore(dir, { now }), dir };
    },
  ],
];

const TRICKY = 'line\u2028sep\u2029para 😀 👩‍💻 "quoted" \\ back\r\nslash \u0000 nul \t tab \ud800 lone';
const msg = (message: Message): SessionEntry => ({ type: 'message', message });

const conversation: SessionEntry[] = [
  msg({ role: 'system', content: 'You are terse.' }),
  msg({ role: 'user', content: `First question: ${TRICKY}` }),
  msg({
    role: 'assistant',
    content: '',
    reasoning: `thinking ${TRICKY}`,
    toolCalls: [
      { id: 'call_1', name: 'write_file', arguments: { path: 'a\u2028.txt', content: TRICKY } },
      { id: 'call_2', name: 'read_file', arguments: '{"path":"b.txt"}' },
    ],
  }),
  { type: 'approval_decision', callId: 'call_1', callKey: 'k1', toolName: 'write_file', argsHash: 'h1', decision: 'allow' },
  { type: 'tool_call_started', callId: 'call_1', toolName: 'write_file', arguments: { path: 'a\u2028.txt', content: TRICKY } },
  { type: 'tool_result', callId: 'call_1', toolName: 'write_file', ok: true, content: `wrote ${TRICKY}` },
  { type: 'tool_call_started', callId: 'call_2', toolName: 'read_file', arguments: { path: 'b.txt' } },
  { type: 'tool_result', callId: 'call_2', toolName: 'read_file', ok: false, content: 'no such file', error: { code: 'NOT_FOUND', message: 'no such file' } },
  msg({ role: 'assistant', content: `Done ${TRICKY}` }),
  { type: 'turn_end', reason: 'stop' },
];

describe.each(stores)('%s session store', (_name, make) => {
  it('round-trips every record type, U+2028, U+2029, emoji and control characters, across a restart', async () => {
    const { store, restart } = await make();
    const session = await store.create({ title: 'Round trip' });
    const appended = [];
    for (const entry of conversation) appended.push(await session.append(entry, { sync: entry.type !== 'message' }));
    await session.close();

    const reopened = await restart().open(session.id);
    const records = reopened.records();
    expect(records.slice(1)).toEqual(appended);
    for (const [i, entry] of conversation.entries()) {
      const { v, seq, at, ...stored } = records[i + 1]!;
      // Exactly what was appended, a lone surrogate included (JSON.stringify escapes it).
      expect(stored).toEqual(entry);
    }
    expect(records[0]).toMatchObject({ v: 1, seq: 1, type: 'session', id: session.id, title: 'Round trip' });
    const history = reopened.history();
    expect(wireProblem(history.messages)).toBeUndefined();
    expect(history.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(history.messages[3]).toEqual({ role: 'tool', toolCallId: 'call_1', toolName: 'write_file', content: `wrote ${TRICKY}`, isError: false });
    expect(history.messages[4]).toMatchObject({ toolCallId: 'call_2', isError: true });
    expect(history.approvals.find('k1', 'h1')).toMatchObject({ decision: 'allow' });
    expect(history.turnOpen).toBe(false);
    await reopened.close();
  });

  it('lists sessions with times, message counts and titles, most recent first', async () => {
    const { store, restart } = await make();
    const first = await store.create();
    await first.append(msg({ role: 'user', content: '  Fix the build\nand the tests' }));
    const second = await store.create({ title: 'Named' });
    await second.append(msg({ role: 'user', content: 'hello' }));
    await second.append(msg({ role: 'assistant', content: 'hi' }));
    await first.append(msg({ role: 'assistant', content: 'On it' }));
    await Promise.all([first.close(), second.close()]);

    const list = await restart().list();
    expect(list.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(list[0]).toMatchObject({ id: first.id, title: 'Fix the build', messageCount: 2, corrupt: false, forkedFrom: undefined });
    expect(list[1]).toMatchObject({ id: second.id, title: 'Named', messageCount: 2 });
    expect(list[0]!.created < list[0]!.updated).toBe(true);
    expect(list[0]!.updated).toBe(first.records().at(-1)!.at);
  });

  it('forks: copies records up to a point, records forkedFrom, and leaves the source as it was', async () => {
    const { store, restart } = await make();
    const source = await store.create({ title: 'Source' });
    for (const entry of conversation) await source.append(entry);
    const before = source.records();
    await source.close();

    const turnEnd = before.find((r) => r.type === 'turn_end')!.seq;
    const fork = await restart().fork(source.id, { throughSeq: 3 });
    expect(fork.records()).toHaveLength(3);
    expect(fork.records()[0]).toMatchObject({ type: 'session', id: fork.id, forkedFrom: { id: source.id, seq: 3 }, title: 'Source' });
    expect(fork.records().slice(1)).toEqual(before.slice(1, 3));
    await fork.append(msg({ role: 'user', content: 'a different direction' }));
    await fork.close();

    const whole = await restart().fork(source.id, { id: 'whole-copy' });
    expect(whole.records().slice(1)).toEqual(before.slice(1));
    expect(whole.history().messages).toEqual(rebuildHistory(before).messages);
    await whole.close();

    expect(await restart().read(source.id)).toEqual(before);
    expect((await restart().read(fork.id)).at(-1)).toMatchObject({ seq: 4, message: { content: 'a different direction' } });
    expect((await restart().list()).find((s) => s.id === fork.id)?.forkedFrom).toEqual({ id: source.id, seq: 3 });
    expect(turnEnd).toBe(before.length);
  });

  it('refuses a fork point the source does not have, and an id that exists', async () => {
    const { store } = await make();
    const source = await store.create({ id: 'src' });
    await source.close();
    await expect(store.fork('src', { throughSeq: 2 })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(store.fork('src', { throughSeq: 0 })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(store.fork('src', { id: 'src' })).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
    await expect(store.fork('missing')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('refuses unsafe ids (INVALID_SESSION_ID), unknown sessions and a second create of the same id (SESSION_EXISTS)', async () => {
    const { store } = await make();
    for (const id of ['../escape', 'a/b', 'a.b', '', 'x'.repeat(129)]) {
      await expect(store.create({ id })).rejects.toMatchObject({ code: 'INVALID_SESSION_ID' });
      await expect(store.open(id)).rejects.toMatchObject({ code: 'INVALID_SESSION_ID' });
      await expect(store.read(id)).rejects.toMatchObject({ code: 'INVALID_SESSION_ID' });
    }
    await expect(store.open('nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(store.read('nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    const session = await store.create({ id: 'taken' });
    await expect(store.create({ id: 'taken' })).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
    await session.close();
    await expect(store.create({ id: 'taken' })).rejects.toMatchObject({ code: 'SESSION_EXISTS' });
  });

  it('lets one writer hold a session: a second open is SESSION_LOCKED until the first closes', async () => {
    const { store, restart } = await make();
    const session = await store.create();
    await expect(store.open(session.id)).rejects.toMatchObject({ code: 'SESSION_LOCKED' });
    await expect(restart().open(session.id)).rejects.toMatchObject({ code: 'SESSION_LOCKED' });
    expect(await store.read(session.id)).toHaveLength(1); // reading needs no lock
    await session.close();
    const again = await store.open(session.id);
    await again.close();
  });

  it('refuses appends after close and keeps the records appended before', async () => {
    const { store, restart } = await make();
    const session = await store.create();
    await session.append(msg({ role: 'user', content: 'kept' }));
    await session.close();
    await expect(session.append(msg({ role: 'user', content: 'late' }))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(await restart().read(session.id)).toHaveLength(2);
  });

  it('keeps a conversation rewind across a reopen: the cut turns are out of the history, and a redo brings them back', async () => {
    const { store, restart } = await make();
    const session = await store.create();
    for (const n of [1, 2]) {
      await session.append(msg({ role: 'user', content: `q${n}` }));
      await session.append(msg({ role: 'assistant', content: `a${n}` }));
      await session.append({ type: 'turn_end' }, { sync: true });
    }
    const cut = await session.append({ type: 'rewind', toSeq: 4 }, { sync: true });
    await session.close();
    const reopened = await restart().open(session.id);
    expect(reopened.history().messages.map((m) => m.content)).toEqual(['q1', 'a1']);
    await reopened.append({ type: 'rewind', toSeq: cut.seq - 1, undoes: cut.seq }, { sync: true });
    expect(reopened.history().messages.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2']);
    await reopened.close();
  });

  it('creates time-sortable ids by default', async () => {
    const { store } = await make();
    const a = await store.create();
    const b = await store.create();
    expect(a.id < b.id).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('file session store, on disk', () => {
  it('writes one JSON line per record with v, seq, type and at, U+2028 and U+2029 escaped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-store-'));
    dirs.push(dir);
    const session = await createFileSessionStore(dir).create({ id: 'on-disk' });
    for (const entry of conversation) await session.append(entry);
    await session.close();
    const text = await readFile(join(dir, 'on-disk.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toMatch(/[\u2028\u2029]/);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(conversation.length + 1);
    lines.forEach((line, i) => expect(JSON.parse(line)).toMatchObject({ v: 1, seq: i + 1, type: expect.any(String), at: expect.any(String) }));
    expect(Object.keys(JSON.parse(lines[1]!)).slice(0, 4)).toEqual(['v', 'seq', 'type', 'at']);
  });
});
