import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAgent,
  definePlugin,
  INTERRUPTED_CALL_CONTENT,
  UNSTARTED_CALL_CONTENT,
  type AgentEvent,
  type Harness,
  type SessionRecord,
} from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { createFileSessionStore, createMemorySessionStore, type SessionStore } from '@weir/session';
import { appendLineTool, crashingSession } from './crashing-session.js';
import { gateTool, harnessWith, readFileTool } from './support.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-agent-session-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Each record as `type` (with the call id or the role, and a turn end's reason), to compare sequences. */
const shape = (records: readonly SessionRecord[]) =>
  records.map((record) => {
    switch (record.type) {
      case 'message':
        return `message:${record.message.role}`;
      case 'tool_call_started':
      case 'tool_result':
      case 'approval_decision':
        return `${record.type}:${record.callId}`;
      case 'turn_end':
        return `turn_end:${record.reason}`;
      default:
        return record.type;
    }
  });

/** A harness with `append_line` behind a guard that asks, and a responder that allows and counts. */
async function askingHarness(runs: string[]): Promise<{ harness: Harness; asked: () => number }> {
  const harness = harnessWith(appendLineTool(runs));
  let asked = 0;
  await harness.use(
    definePlugin({
      name: 'ask-first',
      setup(ctx) {
        ctx.guards.add(() => ({ decision: 'ask', reason: 'writes need a person' }));
        ctx.approval.setResponder(() => {
          asked += 1;
          return { decision: 'allow' };
        });
      },
    }),
  );
  return { harness, asked: () => asked };
}

describe('agent loop: sessions', () => {
  it.each<[string, () => SessionStore]>([
    ['file', () => createFileSessionStore(dir)],
    ['memory', () => createMemorySessionStore()],
  ])('round trip (%s store): a turn, close, reopen: the same history, U+2028 and U+2029 included, and the next turn goes on from it', async (_name, makeStore) => {
    const store = makeStore();
    const session = await store.create();
    const harness = harnessWith(readFileTool({ 'a\u2028b.txt': 'line\u2028sep\u2029para' }));
    const model = createScriptedModel([
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a\u2028b.txt' } }] },
      { text: 'It says line\u2028sep\u2029para.', reasoning: 'quote \u2029 it' },
    ]);
    const agent = createAgent({ model, harness, session, system: 'Be brief.\u2028' });
    const result = await agent.turn('What is in a\u2028b.txt?');
    expect(result.stopReason).toBe('stop');
    const live = structuredClone([...agent.messages]);
    await session.close();

    const records = await store.read(session.id);
    expect(shape(records)).toEqual([
      'session',
      'message:system',
      'message:user',
      'message:assistant',
      'tool_call_started:c1',
      'tool_result:c1',
      'message:assistant',
      'turn_end:stop',
    ]);
    if (_name === 'file') {
      const raw = await readFile(join(dir, `${session.id}.jsonl`), 'utf8');
      // Escaped on disk: a splitter that breaks lines on U+2028/U+2029 still sees one record per line.
      expect(raw).not.toMatch(/[\u2028\u2029]/);
      expect(raw.split('\n')).toHaveLength(records.length + 1);
    }

    const reopened = await store.open(session.id);
    const next = createScriptedModel([{ text: 'Still here.' }]);
    // The stored system message wins over a different option.
    const resumed = createAgent({ model: next, harness, session: reopened, system: 'Another prompt.' });
    expect(resumed.messages).toEqual(live);
    expect([resumed.interrupted, resumed.pending, resumed.turnOpen]).toEqual([[], [], false]);
    await resumed.turn('And now?');
    expect(next.requests[0]!.messages).toEqual([...live, { role: 'user', content: 'And now?' }]);
    await reopened.close();
    expect(shape((await store.read(session.id)).slice(records.length))).toEqual(['message:user', 'message:assistant', 'turn_end:stop']);
    next.assertAllUsed();
  });

  it('a crash between a call’s start and its result: the model reads "interrupted: outcome unknown", and the call is not run again', async () => {
    const store = createFileSessionStore(dir);
    const first = await store.create({ id: 's' });
    const runs: string[] = [];
    const harness = harnessWith(appendLineTool(runs));
    const { session: dying, crashed } = crashingSession(first, (entry) => entry.type === 'tool_result');
    const model = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'append_line', arguments: { line: 'pay invoice 42' } }] }]);
    void createAgent({ model, harness, session: dying }).turn('Pay invoice 42.');
    await crashed;
    expect(runs).toEqual(['pay invoice 42']);
    await first.close();

    const reopened = await store.open('s');
    const next = createScriptedModel([{ text: 'The payment may or may not have gone through; please check before I retry.' }]);
    const agent = createAgent({ model: next, harness, session: reopened });
    expect(agent.interrupted).toEqual([{ callId: 'c1', toolName: 'append_line', arguments: { line: 'pay invoice 42' }, started: true }]);
    expect(agent.pending).toEqual([]);
    expect(agent.turnOpen).toBe(true);
    const interruptedAnswer = { role: 'tool', toolCallId: 'c1', toolName: 'append_line', content: INTERRUPTED_CALL_CONTENT, isError: true };
    expect(agent.messages.at(-1)).toEqual(interruptedAnswer);

    const result = await agent.resume();
    expect(result).toMatchObject({ stopReason: 'stop', toolResults: [], text: expect.stringContaining('may or may not') });
    expect(next.requests[0]!.messages.at(-1)).toEqual(interruptedAnswer);
    expect(runs).toEqual(['pay invoice 42']);
    expect(agent.turnOpen).toBe(false);
    await reopened.close();
    expect(shape(await store.read('s')).slice(-3)).toEqual(['tool_call_started:c1', 'message:assistant', 'turn_end:stop']);
  });

  it('an approval given before a crash is reused when the turn resumes: nobody is asked twice, and the call runs once', async () => {
    const store = createFileSessionStore(dir);
    const { first, runs, harness, asked } = await crashAfterApproval(store);
    expect([asked(), runs]).toEqual([1, []]);
    await first.close();

    const reopened = await store.open('s');
    const next = createScriptedModel([
      { text: 'Deployed.' },
      // Later, the same call id with other arguments: another decision, so the person is asked.
      { toolCalls: [{ id: 'c1', name: 'append_line', arguments: { line: 'deploy to prod' } }] },
      { text: 'Deployed to prod.' },
    ]);
    const agent = createAgent({ model: next, harness, session: reopened });
    expect(agent.pending).toEqual([{ id: 'c1', name: 'append_line', arguments: { line: 'deploy' }, key: expect.any(String) }]);
    expect(agent.interrupted).toEqual([]);
    expect(agent.turnOpen).toBe(true);

    const events: AgentEvent[] = [];
    const resumed = await agent.resume({ onEvent: (event) => events.push(event) });
    expect(asked()).toBe(1);
    expect(runs).toEqual(['deploy']);
    expect(resumed).toMatchObject({ stopReason: 'stop', text: 'Deployed.', toolResults: [{ ok: true, callId: 'c1', content: 'appended: deploy' }] });
    expect(events.slice(0, 3).map((event) => [event.type, 'step' in event ? event.step : undefined])).toEqual([
      ['turn-start', undefined],
      ['tool-start', 0],
      ['tool-result', 0],
    ]);
    expect(next.requests[0]!.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', toolName: 'append_line', content: 'appended: deploy', isError: false });

    await agent.turn('Also prod.');
    expect(asked()).toBe(2);
    expect(runs).toEqual(['deploy', 'deploy to prod']);
    await reopened.close();
    const approvals = (await store.read('s')).filter((record) => record.type === 'approval_decision');
    expect(approvals).toHaveLength(2);
    expect(new Set(approvals.map((record) => record.argsHash)).size).toBe(2);
    next.assertAllUsed();
  });

  it('a new turn instead of resume() answers the unrun calls as never started; they never run, and the history reopens the same', async () => {
    const store = createFileSessionStore(dir);
    const { first, runs, harness, asked } = await crashAfterApproval(store);
    await first.close();

    const reopened = await store.open('s');
    const next = createScriptedModel([{ text: 'Nothing was deployed.' }]);
    const agent = createAgent({ model: next, harness, session: reopened });
    await agent.turn('Never mind.');
    const unstarted = { role: 'tool', toolCallId: 'c1', toolName: 'append_line', content: UNSTARTED_CALL_CONTENT, isError: true };
    expect(next.requests[0]!.messages.slice(-2)).toEqual([unstarted, { role: 'user', content: 'Never mind.' }]);
    expect([asked(), runs, agent.pending, agent.turnOpen]).toEqual([1, [], [], false]);
    const live = structuredClone([...agent.messages]);
    await reopened.close();

    const again = await store.open('s');
    expect(again.history().messages).toEqual(live);
    await again.close();
  });

  it('resume() with no turn left open does nothing and records nothing', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 's' });
    const model = createScriptedModel([]);
    const agent = createAgent({ model, harness: harnessWith(), session });
    expect(await agent.resume()).toEqual({ text: '', stopReason: 'stop', steps: [], toolResults: [], usage: undefined });
    await session.close();
    expect(shape(await store.read('s'))).toEqual(['session']);
  });

  it('a turn cut off before the model answered is finished by resume(): the model answers the stored user message', async () => {
    const store = createFileSessionStore(dir);
    const first = await store.create({ id: 's' });
    const { session: dying, crashed } = crashingSession(first, (entry) => entry.type === 'message' && entry.message.role === 'assistant');
    void createAgent({ model: createScriptedModel([{ text: 'lost' }]), harness: harnessWith(), session: dying, system: 'Hi.' }).turn('Hello?');
    await crashed;
    await first.close();

    const reopened = await store.open('s');
    const next = createScriptedModel([{ text: 'Hello!' }]);
    const agent = createAgent({ model: next, harness: harnessWith(), session: reopened, system: 'Hi.' });
    expect(agent.turnOpen).toBe(true);
    expect(await agent.resume()).toMatchObject({ stopReason: 'stop', text: 'Hello!' });
    expect(next.requests[0]!.messages).toEqual([
      { role: 'system', content: 'Hi.' },
      { role: 'user', content: 'Hello?' },
    ]);
    await reopened.close();
    expect(shape(await store.read('s'))).toEqual(['session', 'message:system', 'message:user', 'message:assistant', 'turn_end:stop']);
  });

  it('records every end: an aborted turn (its cancelled call answered) and a model call that fails', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 's' });
    const gate = gateTool();
    const model = createScriptedModel([
      { toolCalls: [{ id: 'g1', name: 'gate', arguments: { id: 'g1' } }] },
      () => {
        throw new Error('provider down');
      },
    ]);
    const agent = createAgent({ model, harness: harnessWith(gate.tool), session });
    const controller = new AbortController();
    const turn = agent.turn('wait', { signal: controller.signal });
    await gate.started('g1');
    controller.abort();
    expect(await turn).toMatchObject({ stopReason: 'aborted', toolResults: [{ ok: false, error: { code: 'ABORTED' } }] });
    await expect(agent.turn('again')).rejects.toMatchObject({ code: 'MODEL_CALL_FAILED' });
    await session.close();
    expect(shape(await store.read('s'))).toEqual([
      'session',
      'message:user',
      'message:assistant',
      'tool_call_started:g1',
      'tool_result:g1',
      'turn_end:aborted',
      'message:user',
      'turn_end:failed',
    ]);
  });

  it('records the NOT_EXECUTED answers of a cut-off reply, and a turn aborted before it started records nothing', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 's' });
    const runs: string[] = [];
    const model = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path": "a' }], finishReason: 'length' }]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool({}, runs)), session, system: 'S' });
    expect((await agent.turn('read a')).stopReason).toBe('length');
    const aborted = new AbortController();
    aborted.abort();
    expect((await agent.turn('never', { signal: aborted.signal })).stopReason).toBe('aborted');
    await session.close();
    const records = await store.read('s');
    expect(shape(records)).toEqual(['session', 'message:system', 'message:user', 'message:assistant', 'tool_result:c1', 'turn_end:length']);
    expect(records[4]).toMatchObject({ ok: false, error: { code: 'NOT_EXECUTED' } });
    expect(runs).toEqual([]);
  });

  it('refuses something that is not an open session', () => {
    const model = createScriptedModel([]);
    expect(() => createAgent({ model, harness: harnessWith(), session: {} as never })).toThrow(TypeError);
  });
});

/**
 * A turn that asks to run `append_line { line: "deploy" }` (call `c1`), is approved, and crashes
 * after the approval was recorded (durably), before the call's start was: nothing ran.
 */
async function crashAfterApproval(store: ReturnType<typeof createFileSessionStore>) {
  const first = await store.create({ id: 's' });
  const runs: string[] = [];
  const { harness, asked } = await askingHarness(runs);
  const { session: dying, crashed } = crashingSession(first, (entry) => entry.type === 'tool_call_started');
  const model = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'append_line', arguments: { line: 'deploy' } }] }]);
  void createAgent({ model, harness, session: dying }).turn('Deploy.');
  await crashed;
  return { first, runs, harness, asked };
}
