import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { argumentsHash, createAgent, createHarness, definePlugin, defineTool, type GuardVerdict, type Harness, type LanguageModel } from '@weir/core';
import { answerApproval, createFileSessionStore, createMemorySessionStore, listPendingApprovals, type SessionStore } from '@weir/session';

// What the agent does around a suspended approval, beyond the conformance cases every store runs
// (packages/session/src/testing/approval-conformance.ts): mixed batches, a resume that still has
// no answer, a new turn that abandons the request, arguments that come out otherwise on resume.

/** Calls read_note and write_note together, then answers with what the tools said. */
const model: LanguageModel = {
  id: 'scripted',
  complete: async (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') {
      const said = request.messages.filter((message) => message.role === 'tool').map((message) => message.content);
      return { text: said.join(' | '), toolCalls: [], finishReason: 'stop' };
    }
    return {
      text: '',
      toolCalls: [
        { id: 'read', name: 'read_note', arguments: {} },
        { id: 'write', name: 'write_note', arguments: { text: 'hello' } },
      ],
      finishReason: 'tool_calls',
    };
  },
};

/** Writes ask (no responder: nobody here answers); reads do not. `rewrite` makes a guard hand the write other arguments. */
async function notesHarness(ran: string[], rewrite?: string): Promise<Harness> {
  const harness = createHarness();
  harness.tools.register(defineTool({ name: 'read_note', description: 'Reads.', tier: 'read-only', parameters: { type: 'object', properties: {} }, execute: () => (ran.push('read'), 'read it') }));
  harness.tools.register(
    defineTool({
      name: 'write_note',
      description: 'Writes.',
      tier: 'write',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => (ran.push(`write ${String(text)}`), `wrote ${String(text)}`),
    }),
  );
  await harness.use(
    definePlugin({
      name: 'ask-writes',
      setup: (ctx) =>
        void ctx.guards.add((call): GuardVerdict => {
          if (call.tier === 'read-only') return { decision: 'allow' };
          if (rewrite !== undefined && call.arguments.text !== rewrite) return { decision: 'ask', reason: 'a write', arguments: { text: rewrite } };
          return { decision: 'ask', reason: 'a write' };
        }),
    }),
  );
  return harness;
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const stores: [string, () => Promise<() => SessionStore>][] = [
  ['memory', async () => {
    const store = createMemorySessionStore();
    return () => store;
  }],
  ['file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-suspend-'));
    dirs.push(dir);
    // A new instance each time: what another process sees.
    return () => createFileSessionStore(dir);
  }],
];

describe.each(stores)('suspended approvals (%s store)', (_, makeStore) => {
  it('a mixed batch: the read runs and is recorded, the write waits with no result; the live history leaves it open as a reopened one does', async () => {
    const store = await makeStore();
    const ran: string[] = [];
    const session = await store().create();
    const agent = createAgent({ model, harness: await notesHarness(ran), session, onUnansweredApproval: 'suspend' });
    const result = await agent.turn('Read and write.');
    expect(result.stopReason).toBe('awaiting_approval');
    expect(ran).toEqual(['read']);
    expect(result.awaitingApproval?.map((call) => [call.callId, call.toolName, call.arguments, call.reason])).toEqual([['write', 'write_note', { text: 'hello' }, 'a write']]);
    expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'AWAITING_APPROVAL']);
    expect(agent.turnOpen).toBe(true);
    expect(agent.pending.map((call) => call.id)).toEqual(['write']);
    const requests = session.records().filter((record) => record.type === 'approval_request');
    expect(requests).toMatchObject([{ callId: 'write', toolName: 'write_note', tier: 'write', arguments: { text: 'hello' }, argsHash: argumentsHash({ text: 'hello' }), reason: 'a write' }]);
    expect(session.records().filter((record) => record.type === 'tool_call_started').map((record) => (record.type === 'tool_call_started' ? record.callId : ''))).toEqual(['read']);
    expect(session.records().filter((record) => record.type === 'tool_result').map((record) => (record.type === 'tool_result' ? record.callId : ''))).toEqual(['read']);
    expect(session.records().at(-1)).toMatchObject({ type: 'turn_end', reason: 'awaiting_approval' });
    const live = agent.messages.map((message) => message.role);
    await session.close();

    const reopened = await store().open(session.id);
    expect(reopened.history({ pending: 'leave' }).messages.map((message) => message.role)).toEqual(live);
    await reopened.close();
  });

  it('resumed with no answer yet, the call suspends again (its body never runs) and is listed once; answered, it runs once', async () => {
    const store = await makeStore();
    const ran: string[] = [];
    const session = await store().create();
    const agent = createAgent({ model, harness: await notesHarness(ran), session, onUnansweredApproval: 'suspend' });
    await agent.turn('Read and write.');
    const again = await agent.resume();
    expect(again.stopReason).toBe('awaiting_approval');
    expect(ran).toEqual(['read']);
    // While this process holds the session nobody else can answer: the answer waits for the lock.
    const [pending] = await listPendingApprovals(store());
    expect(pending).toMatchObject({ sessionId: session.id, callId: 'write', arguments: { text: 'hello' } });
    await expect(answerApproval(store(), pending!, { decision: 'allow' })).rejects.toMatchObject({ code: 'SESSION_LOCKED' });
    await session.close();
    expect(await listPendingApprovals(store())).toHaveLength(1);

    await answerApproval(store(), pending!, { decision: 'allow' });
    const reopened = await store().open(session.id);
    const finished = await createAgent({ model, harness: await notesHarness(ran), session: reopened, onUnansweredApproval: 'suspend' }).resume();
    await reopened.close();
    expect(finished.stopReason).toBe('stop');
    expect(finished.text).toBe('read it | wrote hello');
    expect(ran).toEqual(['read', 'write hello']);
  });

  it('a new turn instead of a resume abandons the request: the call is answered as not run, and nobody can answer it any more', async () => {
    const store = await makeStore();
    const ran: string[] = [];
    const session = await store().create();
    await createAgent({ model, harness: await notesHarness(ran), session, onUnansweredApproval: 'suspend' }).turn('Read and write.');
    await session.close();
    const [pending] = await listPendingApprovals(store());
    const reopened = await store().open(session.id);
    const next = createAgent({ model: { id: 'quiet', complete: async () => ({ text: 'ok', toolCalls: [], finishReason: 'stop' }) }, harness: await notesHarness(ran), session: reopened, onUnansweredApproval: 'suspend' });
    await next.turn('Never mind.');
    await reopened.close();
    expect(await listPendingApprovals(store(), { includeAnswered: true })).toEqual([]);
    await expect(answerApproval(store(), pending!, { decision: 'allow' })).rejects.toMatchObject({ code: 'APPROVAL_NOT_PENDING' });
    expect(ran).toEqual(['read']);
  });

  it('arguments that come out otherwise on resume are not covered by the answer: the call waits again, for its new arguments', async () => {
    const store = await makeStore();
    const ran: string[] = [];
    const session = await store().create();
    await createAgent({ model, harness: await notesHarness(ran), session, onUnansweredApproval: 'suspend' }).turn('Read and write.');
    await session.close();
    const [approved] = await listPendingApprovals(store());
    await answerApproval(store(), approved!, { decision: 'allow' });

    // The resuming host's guard rewrites the write: the approved hash no longer matches.
    const reopened = await store().open(session.id);
    const resumed = await createAgent({ model, harness: await notesHarness(ran, 'rewritten'), session: reopened, onUnansweredApproval: 'suspend' }).resume();
    await reopened.close();
    expect(resumed.stopReason).toBe('awaiting_approval');
    expect(ran).toEqual(['read']);
    const [waiting] = await listPendingApprovals(store());
    expect(waiting).toMatchObject({ callKey: approved!.callKey, arguments: { text: 'rewritten' }, argumentsHash: argumentsHash({ text: 'rewritten' }), answer: undefined });
    // The old answer's key names the old arguments: refused.
    await expect(answerApproval(store(), approved!, { decision: 'allow' })).rejects.toMatchObject({ code: 'APPROVAL_MISMATCH' });
  });
});

describe('suspended approvals: bad input', () => {
  it("onUnansweredApproval: 'suspend' needs a session, and only 'deny' or 'suspend' are accepted", () => {
    const harness = createHarness();
    expect(() => createAgent({ model, harness, onUnansweredApproval: 'suspend' })).toThrow(/needs a session/);
    expect(() => createAgent({ model, harness, onUnansweredApproval: 'wait' as 'suspend' })).toThrow(TypeError);
  });

  it('answerApproval refuses a malformed key or decision with a one-line TypeError, before opening anything', async () => {
    const store = createMemorySessionStore();
    await expect(answerApproval(store, { sessionId: 's', callKey: '', argumentsHash: 'h' }, { decision: 'allow' })).rejects.toThrow(/key.callKey/);
    await expect(answerApproval(store, { sessionId: 's', callKey: 'k', argumentsHash: 'h' }, { decision: 'yes' as 'allow' })).rejects.toThrow(/decision must be/);
    await expect(answerApproval(store, { sessionId: 'missing', callKey: 'k', argumentsHash: 'h' }, { decision: 'allow' })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(listPendingApprovals(store, { sessionIds: 'one' as unknown as string[] })).rejects.toThrow(/sessionIds must be an array/);
    // An id that names no session (removed meanwhile, say) is skipped, not an error.
    expect(await listPendingApprovals(store, { sessionIds: ['missing'] })).toEqual([]);
  });
});
