import { describe, expect, it } from 'vitest';
import { createAgent, createHarness, isHarnessError, type LanguageModel } from '@weir/core';
import { createMemorySessionStore } from '@weir/session';

// After a failed model call the question has no answer. Resuming the session offers it to the model
// again (turnOpen, resume()) rather than leaving it behind for a second user message in a row.
describe('resuming a session whose last question was never answered', () => {
  it('is an open turn: resume() asks the model the same question, with no second user message', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 'q' });
    const failing: LanguageModel = {
      id: 'down',
      complete: () => Promise.reject(new Error('HTTP 500')),
    };
    const first = createAgent({ model: failing, harness: createHarness(), session, system: 'sys' });
    const failure = await first.turn('What is in notes.txt?').catch((error: unknown) => error);
    expect(isHarnessError(failure, 'MODEL_CALL_FAILED')).toBe(true);
    await session.close();

    const seen: string[][] = [];
    const working: LanguageModel = {
      id: 'up',
      complete: async (request) => {
        seen.push(request.messages.map((message) => message.role));
        return { text: 'Milk.', toolCalls: [], finishReason: 'stop' };
      },
    };
    const reopened = await store.open('q');
    const second = createAgent({ model: working, harness: createHarness(), session: reopened, system: 'sys' });
    expect(second.turnOpen).toBe(true);
    expect(second.messages.at(-1)).toMatchObject({ role: 'user', content: 'What is in notes.txt?' });
    const result = await second.resume();
    expect(result).toMatchObject({ stopReason: 'stop', text: 'Milk.' });
    expect(seen).toEqual([['system', 'user']]);
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
    await reopened.close();
  });

  it('a finished turn is not open', async () => {
    const store = createMemorySessionStore();
    const session = await store.create({ id: 'done' });
    const model: LanguageModel = { id: 'up', complete: async () => ({ text: 'Hi.', toolCalls: [], finishReason: 'stop' }) };
    await createAgent({ model, harness: createHarness(), session }).turn('Hello');
    await session.close();
    const reopened = await store.open('done');
    expect(createAgent({ model, harness: createHarness(), session: reopened }).turnOpen).toBe(false);
    await reopened.close();
  });
});
