// The `compaction` hook (a tap may cancel a compaction before its summary call) and
// `agent.compact()` (the manual trigger, between turns), recorded in the session like the automatic one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, SUMMARY_PREFIX, type CompactionPlan } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { createFileSessionStore } from '@weir/session';
import { harnessWith, readFileTool } from './support.js';

const files = { 'a.txt': 'alpha', 'b.txt': 'beta' };
const read = (path: string) => ({ toolCalls: [{ name: 'read_file', arguments: { path } }] });
const byLength = { keepSteps: 1, countTokens: (messages: readonly unknown[]) => messages.length };

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the compaction hook', () => {
  it('shows the plan of an automatic compaction to its taps; a cancel keeps the whole history and no summary call is made', async () => {
    const summarizer = createScriptedModel([], { id: 'mock:summarizer' });
    const model = createScriptedModel([read('a.txt'), read('b.txt'), { text: 'done' }]);
    const harness = harnessWith(readFileTool(files));
    const seen: CompactionPlan[] = [];
    harness.hooks.compaction.tapPromise('keeper', async (plan) => {
      seen.push(plan);
      return { action: 'cancel', reason: 'a migration is half done' };
    });
    const agent = createAgent({ model, harness, system: 'S', compact: { maxTokens: 4, model: summarizer, ...byLength } });
    expect((await agent.turn('go')).stopReason).toBe('stop');
    // Before step 3: [S, go, a1, t1, a2, t2] is over 4, and [go, a1, t1] could go.
    expect(seen).toEqual([{ trigger: 'auto', instructions: undefined, replaced: 3, tokens: 6 }]);
    expect(model.requests[2]!.messages).toHaveLength(6);
    expect(agent.messages[1]).toEqual({ role: 'user', content: 'go' });
    model.assertAllUsed();
  });

  it('a tap that throws is logged and the compaction goes on', async () => {
    const model = createScriptedModel([read('a.txt'), read('b.txt'), { text: 'they read a' }, { text: 'done' }]);
    const harness = harnessWith(readFileTool(files));
    harness.hooks.compaction.tap('broken', () => {
      throw new Error('boom');
    });
    const agent = createAgent({ model, harness, compact: { maxTokens: 4, ...byLength } });
    await agent.turn('go');
    expect(agent.messages[0]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}they read a` });
  });
});

describe('agent.compact()', () => {
  it('compacts now with the instructions in the summary prompt, tells the taps "manual", and records it durably in the session', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-compact-now-'));
    const store = createFileSessionStore(dir);
    const session = await store.create();
    const model = createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'they said hi twice', usage: { inputTokens: 40, outputTokens: 6 } }]);
    const harness = harnessWith();
    const seen: CompactionPlan[] = [];
    harness.hooks.compaction.tap('watcher', (plan) => void seen.push(plan));
    const agent = createAgent({ model, harness, system: 'S', session });
    await agent.turn('hi');
    await agent.turn('hi again');
    await agent.turn('and again');

    const result = await agent.compact({ instructions: 'keep the greetings' });

    expect(result).toEqual({ status: 'compacted', replaced: 3, summary: `${SUMMARY_PREFIX}they said hi twice`, model: 'mock:scripted', usage: { inputTokens: 40, outputTokens: 6 } });
    expect(seen).toEqual([{ trigger: 'manual', instructions: 'keep the greetings', replaced: 3, tokens: expect.any(Number) }]);
    expect(model.requests[3]!.messages[0]!.content).toContain('Instructions for this summary, from the user: keep the greetings');
    // The system message and the last two steps (the default) stay.
    expect(agent.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    const live = [...agent.messages];
    model.assertAllUsed();
    await session.close();
    const reopened = await store.open(session.id);
    expect(reopened.records().filter((record) => record.type === 'compaction')).toMatchObject([{ type: 'compaction', from: 1, count: 3, summary: `${SUMMARY_PREFIX}they said hi twice` }]);
    expect(reopened.history().messages).toEqual(live);
    await reopened.close();
  });

  it('a tap that cancels leaves the history as it was and says who and why', async () => {
    const model = createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const harness = harnessWith();
    harness.hooks.compaction.tap('keeper', () => ({ action: 'cancel', reason: 'not now' }));
    const agent = createAgent({ model, harness });
    await agent.turn('hi');
    await agent.turn('hi again');
    await agent.turn('and again');
    expect(await agent.compact()).toEqual({ status: 'cancelled', by: 'keeper', reason: 'not now' });
    expect(agent.messages).toHaveLength(6);
    model.assertAllUsed();
  });

  it('takes a tapAsync tap\'s answer from its callback', async () => {
    const model = createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const harness = harnessWith();
    harness.hooks.compaction.tapAsync('keeper', (_plan, _info, done) => setTimeout(() => done(null, { action: 'cancel', reason: 'later' }), 1));
    const agent = createAgent({ model, harness });
    for (const text of ['a', 'b', 'c']) await agent.turn(text);
    expect(await agent.compact()).toEqual({ status: 'cancelled', by: 'keeper', reason: 'later' });
  });

  it('skips a history too short to summarise, without asking the taps', async () => {
    const model = createScriptedModel([{ text: 'one' }]);
    const harness = harnessWith();
    let asked = 0;
    harness.hooks.compaction.tap('watcher', () => void (asked += 1));
    const agent = createAgent({ model, harness });
    await agent.turn('hi');
    const result = await agent.compact();
    expect(result.status).toBe('skipped');
    expect(asked).toBe(0);
  });

  it('rejects with MODEL_CALL_FAILED when the summary call fails, the history unchanged', async () => {
    const model = createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }, () => { throw new Error('down'); }]);
    const agent = createAgent({ model, harness: harnessWith() });
    await agent.turn('hi');
    await agent.turn('hi again');
    await agent.turn('and again');
    await expect(agent.compact()).rejects.toMatchObject({ code: 'MODEL_CALL_FAILED' });
    expect(agent.messages).toHaveLength(6);
  });
});
