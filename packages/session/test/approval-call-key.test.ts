import { describe, expect, it } from 'vitest';
import { argumentsHash, createAgent, createHarness, definePlugin, defineTool, type Harness, type LanguageModel, type ModelToolCall } from '@weir/core';
import { createMemorySessionStore } from '@weir/session';

// A session's approval answers bind the execution (the call key recorded with the assistant message)
// and its exact arguments, never the model's call id: ids repeat, and a resumed call may carry another.

async function askingHarness(): Promise<{ harness: Harness; asked: string[]; ran: string[] }> {
  const asked: string[] = [];
  const ran: string[] = [];
  const harness = createHarness();
  harness.tools.register(
    defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      tier: 'write',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }, exec) => (ran.push(exec.callId), `wrote ${String(text)}`),
    }),
  );
  await harness.use(
    definePlugin({
      name: 'ask-writes',
      setup(ctx) {
        ctx.guards.add(() => ({ decision: 'ask', reason: 'a write' }));
        ctx.approval.setResponder((request) => (asked.push(request.callId), { decision: 'allow' }));
      },
    }),
  );
  return { harness, asked, ran };
}

/** A model that calls write_note with id `call_0` once per turn, then answers. */
const callsEveryTurn = (): LanguageModel => ({
  id: 'scripted',
  complete: async (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: 'Done.', toolCalls: [], finishReason: 'stop' };
    return { text: '', toolCalls: [{ id: 'call_0', name: 'write_note', arguments: { text: 'same' } }], finishReason: 'tool_calls' };
  },
});

describe('session approvals key on the call key', () => {
  it('a model id used again, with the same arguments, is asked again: in the same run and after a reopen', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 'replay' });
    const { harness, asked, ran } = await askingHarness();
    const agent = createAgent({ model: callsEveryTurn(), harness, session });
    await agent.turn('Write it.');
    await agent.turn('Write it again.');
    // The loop gives a repeated model id a suffix in the history; the answer is asked for again either way.
    expect(asked).toHaveLength(2);
    await session.close();

    const reopened = await store.open('replay');
    await createAgent({ model: callsEveryTurn(), harness, session: reopened }).turn('And once more.');
    expect(asked).toHaveLength(3);
    expect(ran).toHaveLength(3);
    await reopened.close();
  });

  it('a call answered before a crash runs on resume without asking, whatever id it carries now; another call with the old id is asked', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 'resumed' });
    const args = { text: 'kept' };
    const call: ModelToolCall = { id: 'renumbered', name: 'write_note', arguments: args, key: '0197f000-0000-7000-8000-000000000001' };
    const stranger: ModelToolCall = { id: 'call_7', name: 'write_note', arguments: args, key: '0197f000-0000-7000-8000-000000000002' };
    await session.append({ type: 'message', message: { role: 'system', content: 'sys' } });
    await session.append({ type: 'message', message: { role: 'user', content: 'Write it.' } });
    await session.append({ type: 'message', message: { role: 'assistant', content: '', toolCalls: [call, stranger] } });
    // Answered before the crash: the first under another model id, the second's id answered for another execution.
    await session.append({ type: 'approval_decision', callId: 'call_3', callKey: call.key, toolName: 'write_note', argsHash: argumentsHash(args), decision: 'allow' });
    await session.append({ type: 'approval_decision', callId: 'call_7', callKey: '0197f000-0000-7000-8000-0000000000ff', toolName: 'write_note', argsHash: argumentsHash(args), decision: 'allow' }, { sync: true });
    await session.close();

    const reopened = await store.open('resumed');
    const { harness, asked, ran } = await askingHarness();
    const agent = createAgent({ model: callsEveryTurn(), harness, session: reopened, system: 'sys' });
    expect(agent.turnOpen).toBe(true);
    await agent.resume();
    expect(asked).toEqual(['call_7']);
    expect(ran.sort()).toEqual(['call_7', 'renumbered']);
    await reopened.close();
  });

  it('a decision recorded before call keys (no callKey) is not reused: the call is asked again', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 'old' });
    const args = { text: 'old' };
    await session.append({ type: 'message', message: { role: 'user', content: 'Write it.' } });
    await session.append({ type: 'message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'write_note', arguments: args, key: '0197f000-0000-7000-8000-000000000003' }] } });
    await session.append({ type: 'approval_decision', callId: 'call_0', toolName: 'write_note', argsHash: argumentsHash(args), decision: 'allow' }, { sync: true });
    await session.close();
    const reopened = await store.open('old');
    const { harness, asked } = await askingHarness();
    await createAgent({ model: callsEveryTurn(), harness, session: reopened }).resume();
    expect(asked).toEqual(['call_0']);
    await reopened.close();
  });
});
