import { strict as assert } from 'node:assert';
import type { SessionEntry, SessionRecord } from '@weir/core';
import type { SessionStore } from '../session-store.js';
import { registerApprovalCases } from './approval-conformance.js';

/** A store under test, fresh for each case, with the hooks it can offer. */
export interface ConformanceStore {
  readonly store: SessionStore;
  /**
   * Another instance over the same data, as a second process (or a restart) would make it. Default:
   * `store` itself, which checks nothing across instances; a durable store should give a new one.
   */
  readonly restart?: () => SessionStore;
  /**
   * Simulates a crash in the middle of an append to closed session `id`: leaves part of a record
   * behind the last acknowledged one, the way a write cut short by the crash would. Stores that cannot
   * be torn (memory) leave it out, and do not list `crash-mid-append` in `ConformanceRunner.simulates`.
   */
  readonly tearAppend?: (id: string) => Promise<void>;
  /**
   * Damages closed session `id` in its middle, so that reading it fails with `SESSION_CORRUPT`.
   * Listed as `damage` in `ConformanceRunner.simulates`.
   */
  readonly corrupt?: (id: string) => Promise<void>;
  /** Runs after the case, pass or fail: remove directories, close connections. */
  readonly cleanup?: () => Promise<void>;
}

/**
 * The test functions the suite registers its cases with: vitest's `describe` and `it` (or any runner
 * with the same shape). Taken as a parameter so this entry imports no test runner at run time and
 * works with whichever vitest version the store's author runs; the assertions are `node:assert`.
 */
export interface ConformanceRunner {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: () => Promise<void>) => unknown;
  /**
   * What the store's factory can simulate, each with its hook on `ConformanceStore`: `crash-mid-append`
   * (`tearAppend`) and `damage` (`corrupt`). The cases for them are registered only when listed here.
   */
  readonly simulates?: readonly ('crash-mid-append' | 'damage')[];
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const TRICKY = 'line\u2028sep\u2029para 😀 "quoted" \\ back\r\nslash \u0000 nul';
const user = (content: string): SessionEntry => ({ type: 'message', message: { role: 'user', content } });

/** One entry of every kind the agent loop records. */
const TURN: readonly SessionEntry[] = [
  { type: 'message', message: { role: 'system', content: 'Be terse.' } },
  user(`Question: ${TRICKY}`),
  {
    type: 'message',
    message: { role: 'assistant', content: '', reasoning: 'think', toolCalls: [{ id: 'c1', name: 'write_file', arguments: { path: 'a.txt', content: TRICKY } }] },
  },
  { type: 'approval_decision', callId: 'c1', toolName: 'write_file', argsHash: 'h1', decision: 'allow' },
  { type: 'tool_call_started', callId: 'c1', toolName: 'write_file', arguments: { path: 'a.txt', content: TRICKY } },
  { type: 'tool_result', callId: 'c1', toolName: 'write_file', ok: true, content: 'wrote' },
  { type: 'message', message: { role: 'assistant', content: `Done ${TRICKY}` } },
  { type: 'turn_end', reason: 'stop' },
];

/** A record without the fields the store stamps on it. */
const entryOf = (record: SessionRecord): unknown => {
  const { v: _v, seq: _seq, at: _at, ...entry } = record;
  return entry;
};

const rejectsWith = async (promise: Promise<unknown>, code: string): Promise<void> => {
  await assert.rejects(promise, (error: unknown) => {
    assert.equal((error as { code?: unknown }).code, code);
    return true;
  });
};

/**
 * Registers the session-store conformance cases (see the package README for what each one promises)
 * in a `describe` block named `name`. `makeStore` is called once per case and must return an empty
 * store. Use it from a test file:
 *
 * ```ts
 * import { describe, it } from 'vitest';
 * assertSessionStoreConformance('my store', async () => ({ store: createMyStore(), restart: () => createMyStore() }), { describe, it });
 * // A store that can be torn and damaged says so, and its factory returns tearAppend and corrupt:
 * // { describe, it, simulates: ['crash-mid-append', 'damage'] }
 * ```
 */
export function assertSessionStoreConformance(name: string, makeStore: () => Promise<ConformanceStore> | ConformanceStore, runner: ConformanceRunner): void {
  const { describe, it } = runner;
  const simulates = new Set(runner.simulates ?? []);
  const test = (title: string, body: (made: ConformanceStore & { readonly restart: () => SessionStore }) => Promise<void>) =>
    it(title, async () => {
      const made = await makeStore();
      try {
        await body({ ...made, restart: made.restart ?? (() => made.store) });
      } finally {
        await made.cleanup?.();
      }
    });

  describe(`${name}: session store conformance`, () => {
    test('appends come back in order, numbered from 1, deep-equal to what was appended, after a restart', async ({ store, restart }) => {
      const session = await store.create({ title: 'Order' });
      // Not awaited one by one: the store must keep call order.
      const appended = await Promise.all(TURN.map((entry, i) => session.append(entry, { sync: i === TURN.length - 1 })));
      assert.deepEqual(appended.map((record) => record.seq), TURN.map((_, i) => i + 2));
      await session.close();
      for (const records of [await restart().read(session.id), (await restart().open(session.id)).records()]) {
        assert.equal(records.length, TURN.length + 1);
        assert.deepEqual(records.map((record) => record.seq), records.map((_, i) => i + 1));
        assert.deepEqual(records.slice(1), appended);
        assert.deepEqual(records.slice(1).map(entryOf), TURN);
        assert.equal(records[0]!.type, 'session');
      }
    });

    test('a second writer of the same session is refused (SESSION_LOCKED) while the first holds it, and never interleaves', async ({ store, restart }) => {
      const first = await store.create();
      await first.append(user('one'));
      const opens: PromiseSettledResult<unknown>[] = await Promise.allSettled([store.open(first.id), restart().open(first.id), restart().open(first.id)]);
      for (const outcome of opens) {
        assert.equal(outcome.status, 'rejected');
        assert.equal((outcome.reason as { code?: unknown }).code, 'SESSION_LOCKED');
      }
      await first.append(user('two'));
      await first.close();
      assert.deepEqual((await restart().read(first.id)).slice(1).map(entryOf), [user('one'), user('two')]);
      // Two racing opens of a free session: exactly one wins.
      const race = await Promise.allSettled([restart().open(first.id), restart().open(first.id)]);
      const won = race.filter((outcome) => outcome.status === 'fulfilled');
      assert.equal(won.length, 1);
      const lost = race.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      assert.equal((lost!.reason as { code?: unknown }).code, 'SESSION_LOCKED');
      const writer = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<SessionStore['open']>>>).value;
      assert.equal((await writer.append(user('three'))).seq, 4);
      await writer.close();
    });

    test('a writer taken over is fenced: its appends are refused (SESSION_FENCED) and none of them is ever read', async ({ store, restart }) => {
      const first = await store.create();
      await first.append(user('one'), { sync: true });
      const second = await restart().open(first.id, { takeOver: true });
      assert.ok(second.epoch > first.epoch, `the takeover's epoch (${second.epoch}) must be larger than the first writer's (${first.epoch})`);
      assert.deepEqual(second.records().slice(1).map(entryOf), [user('one')]);
      // The old writer thinks it still holds the session: every append from it is refused, not lost silently.
      await rejectsWith(first.append(user('stale')), 'SESSION_FENCED');
      await rejectsWith(first.append(user('stale again'), { sync: true }), 'SESSION_FENCED');
      assert.equal((await second.append(user('two'), { sync: true })).seq, 3);
      // Closing the fenced writer does not release the new writer's hold.
      await first.close().catch(() => undefined);
      await rejectsWith(restart().open(first.id), 'SESSION_LOCKED');
      await second.close();
      const third = await restart().open(first.id);
      assert.ok(third.epoch > second.epoch, 'epochs only grow, across closes too');
      await third.close();
      assert.deepEqual((await restart().read(first.id)).slice(1).map(entryOf), [user('one'), user('two')]);
      const fork = await restart().fork(first.id);
      assert.ok(Number.isSafeInteger(fork.epoch) && fork.epoch > 0);
      await fork.close();
    });

    test('forks copy records through a point with forkedFrom, and the source and the fork then go apart', async ({ store, restart }) => {
      const source = await store.create({ title: 'Source' });
      for (const entry of TURN) await source.append(entry);
      const before = source.records();
      await source.close();
      const fork = await restart().fork(source.id, { throughSeq: 3 });
      assert.equal(fork.records().length, 3);
      assert.deepEqual(fork.records()[0], { ...fork.records()[0], type: 'session', id: fork.id, forkedFrom: { id: source.id, seq: 3 }, title: 'Source' });
      assert.deepEqual(fork.records().slice(1), before.slice(1, 3));
      await fork.append(user('elsewhere'));
      await fork.close();
      assert.deepEqual(await restart().read(source.id), before);
      assert.deepEqual(entryOf((await restart().read(fork.id)).at(-1)!), user('elsewhere'));
      assert.deepEqual((await restart().list()).find((summary) => summary.id === fork.id)?.forkedFrom, { id: source.id, seq: 3 });
      await rejectsWith(restart().fork(source.id, { throughSeq: before.length + 1 }), 'SESSION_NOT_FOUND');
      await rejectsWith(restart().fork(source.id, { id: source.id }), 'SESSION_EXISTS');
    });

    test('compaction records are kept and rebuild the compacted history after a restart', async ({ store, restart }) => {
      const session = await store.create();
      for (const n of [1, 2, 3]) {
        await session.append(user(`q${n}`));
        await session.append({ type: 'message', message: { role: 'assistant', content: `a${n}` } });
      }
      const compaction = await session.append({ type: 'compaction', from: 0, count: 4, summary: 'q1 a1 q2 a2, summarized' }, { sync: true });
      const live = session.history().messages.map((message) => message.content);
      await session.close();
      const reopened = await restart().open(session.id);
      assert.deepEqual((await restart().read(session.id)).at(-1), compaction);
      assert.deepEqual(reopened.history().messages.map((message) => message.content), live);
      assert.deepEqual(live, ['q1 a1 q2 a2, summarized', 'q3', 'a3']);
      await reopened.close();
    });

    test('images come back byte for byte, through a restart and a fork', async ({ store, restart }) => {
      const session = await store.create();
      const entries: SessionEntry[] = [
        { type: 'message', message: { role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, { type: 'image', data: PNG, mediaType: 'image/png' }] } },
        { type: 'tool_result', callId: 'c1', toolName: 'screenshot', ok: true, content: '', parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }] },
      ];
      for (const entry of entries) await session.append(entry, { sync: true });
      await session.close();
      assert.deepEqual((await restart().read(session.id)).slice(1).map(entryOf), entries);
      const fork = await restart().fork(session.id);
      assert.deepEqual(fork.records().slice(1).map(entryOf), entries);
      await fork.close();
      assert.deepEqual((await restart().read(fork.id)).slice(1).map(entryOf), entries);
    });

    test('list shows every session, most recently updated first, with its message count and title', async ({ store, restart }) => {
      const ids: string[] = [];
      for (const n of [0, 1, 2, 3, 4]) {
        const session = await store.create({ title: `s${n}` });
        for (let m = 0; m <= n; m += 1) await session.append(user(`m${m}`));
        await session.close();
        ids.push(session.id);
      }
      // Touch the first again: it becomes the most recent.
      const again = await restart().open(ids[0]!);
      await again.append(user('latest'));
      await again.close();
      const list = await restart().list();
      assert.deepEqual(list.map((summary) => summary.id), [ids[0], ...ids.slice(1).reverse()]);
      assert.deepEqual(list.map((summary) => summary.messageCount), [2, 5, 4, 3, 2]);
      assert.deepEqual(list.map((summary) => summary.title), ['s0', 's4', 's3', 's2', 's1']);
      assert.ok(list.every((summary) => !summary.corrupt && summary.created <= summary.updated));
    });

    test('list pages: limit and after walk the same order as the whole listing, a page at a time', async ({ store, restart }) => {
      for (const n of [0, 1, 2, 3, 4, 5, 6]) {
        const session = await store.create({ title: `p${n}` });
        await session.append(user(`m${n}`));
        await session.close();
      }
      const whole = await restart().list();
      assert.equal(whole.length, 7);
      const pages: string[][] = [];
      let after: { updated: string; id: string } | undefined;
      for (;;) {
        const page = await restart().list(after === undefined ? { limit: 3 } : { limit: 3, after });
        if (page.length === 0) break;
        assert.ok(page.length <= 3, `a page of limit 3 held ${page.length}`);
        pages.push(page.map((summary) => summary.id));
        after = page.at(-1);
      }
      assert.deepEqual(pages.map((page) => page.length), [3, 3, 1]);
      assert.deepEqual(pages.flat(), whole.map((summary) => summary.id));
      assert.deepEqual(await restart().list({ after: whole[4]! }), whole.slice(5));
      assert.deepEqual((await restart().list({ limit: 100 })).map((summary) => summary.id), whole.map((summary) => summary.id));
      for (const bad of [{ limit: 0 }, { limit: 1.5 }, { limit: -1 }, { after: { id: 'x' } }, { after: 'x' }]) {
        await assert.rejects(restart().list(bad as never), TypeError, `list(${JSON.stringify(bad)}) must reject with a TypeError`);
      }
    });

    test('a bad entry is refused (INVALID_SESSION_RECORD) and hides nothing else: the session goes on', async ({ store, restart }) => {
      const session = await store.create();
      await session.append(user('before'));
      const bad = { type: 'tool_result', callId: 'c1', toolName: 't', ok: 'yes', content: 1 } as unknown as SessionEntry;
      await rejectsWith(session.append(bad), 'INVALID_SESSION_RECORD');
      await rejectsWith(session.append({ type: 'no_such_type' } as unknown as SessionEntry), 'INVALID_SESSION_RECORD');
      const after = await session.append(user('after'), { sync: true });
      assert.equal(after.seq, 3);
      await session.close();
      assert.deepEqual((await restart().read(session.id)).slice(1).map(entryOf), [user('before'), user('after')]);
    });

    test('delete removes a session (never a live one); collecting garbage keeps every image another session names', async ({ store, restart }) => {
      assert.equal(typeof store.delete, 'function', 'the store has no delete(id)');
      assert.equal(typeof store.collectGarbage, 'function', 'the store has no collectGarbage()');
      const image: SessionEntry = { type: 'message', message: { role: 'user', content: 'look', parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }] } };
      const [gone, kept] = [await store.create(), await store.create()];
      for (const session of [gone, kept]) {
        await session.append(image, { sync: true });
        await session.close();
      }
      const live = await store.create();
      await rejectsWith(store.delete!(live.id), 'SESSION_LOCKED');
      await live.close();
      await rejectsWith(store.delete!('no-such-session'), 'SESSION_NOT_FOUND');
      const collected = await store.delete!(gone.id);
      assert.ok(Number.isInteger(collected.removed) && Number.isInteger(collected.kept));
      await rejectsWith(restart().read(gone.id), 'SESSION_NOT_FOUND');
      assert.deepEqual((await restart().list()).map((summary) => summary.id).sort(), [kept.id, live.id].sort());
      await restart().collectGarbage!();
      assert.deepEqual((await restart().read(kept.id)).slice(1).map(entryOf), [image]);
    });

    test('concurrent sessions stay apart: interleaved appends to many sessions each read back only their own', async ({ store, restart }) => {
      const sessions = await Promise.all(Array.from({ length: 8 }, () => store.create()));
      await Promise.all(sessions.flatMap((session, s) => Array.from({ length: 10 }, (_, n) => session.append(user(`${s}:${n}`)))));
      await Promise.all(sessions.map((session) => session.close()));
      for (const [s, session] of sessions.entries()) {
        const records = await restart().read(session.id);
        assert.deepEqual(records.slice(1).map(entryOf), Array.from({ length: 10 }, (_, n) => user(`${s}:${n}`)));
      }
      assert.equal(new Set(sessions.map((session) => session.id)).size, sessions.length);
    });

    registerApprovalCases(test);
  });

  // Registered only for what the store says it can simulate (cases are registered before any factory runs).
  if (simulates.size === 0) return;
  describe(`${name}: session store conformance, crash cases`, () => {
    if (simulates.has('crash-mid-append')) {
      test('a crash mid-append leaves the acknowledged records readable, and the session resumes after them', async ({ store, restart, tearAppend }) => {
        const session = await store.create();
        const kept = [await session.append(user('one')), await session.append(user('two'), { sync: true })];
        await session.close();
        assert.ok(tearAppend, 'the store says it simulates crash-mid-append, so its factory must return tearAppend');
        await tearAppend(session.id);
        assert.deepEqual((await restart().read(session.id)).slice(1), kept);
        const resumed = await restart().open(session.id);
        assert.deepEqual(resumed.records().slice(1), kept);
        assert.equal((await resumed.append(user('three'), { sync: true })).seq, 4);
        await resumed.close();
        assert.deepEqual((await restart().read(session.id)).slice(1).map(entryOf), [user('one'), user('two'), user('three')]);
      });
    }
    if (simulates.has('damage')) {
      test('a damaged session is listed as corrupt, refuses to open (SESSION_CORRUPT), and hides no other session', async ({ store, restart, corrupt }) => {
        const good = await store.create({ title: 'good' });
        await good.append(user('fine'));
        await good.close();
        const bad = await store.create({ title: 'bad' });
        await bad.append(user('one'));
        await bad.append(user('two'));
        await bad.close();
        assert.ok(corrupt, 'the store says it simulates damage, so its factory must return corrupt');
        await corrupt(bad.id);
        const list = await restart().list();
        assert.deepEqual(list.map((summary) => [summary.id, summary.corrupt]).sort(), [[bad.id, true], [good.id, false]].sort());
        await rejectsWith(restart().open(bad.id), 'SESSION_CORRUPT');
        assert.deepEqual((await restart().read(good.id)).slice(1).map(entryOf), [user('fine')]);
      });
    }
  });
}

