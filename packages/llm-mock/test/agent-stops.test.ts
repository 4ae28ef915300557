import { describe, expect, it } from 'vitest';
import { createAgent, isHarnessError, type FinishReason, type ModelRequest } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { gateTool, harnessWith, readFileTool } from './support.js';

const readA = { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] };

/** A model step that never answers on its own: it settles only when the request's signal aborts. */
const waitForAbort = (request: ModelRequest) =>
  new Promise<never>((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(request.signal!.reason)));

describe('agent loop: how a turn stops', () => {
  it('stops at maxSteps with max_steps, every call of the last step answered', async () => {
    const runs: string[] = [];
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs));
    const model = createScriptedModel([readA, readA, readA]);
    const agent = createAgent({ model, harness, maxSteps: 3 });

    const result = await agent.turn('loop forever');

    expect(result.stopReason).toBe('max_steps');
    expect(result.steps).toHaveLength(3);
    expect(runs).toHaveLength(3);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'tool', content: 'alpha' });
    model.assertAllUsed();
  });

  it('stops with stop when the model answers without tool calls before maxSteps', async () => {
    const model = createScriptedModel([{ text: 'hello' }]);
    const result = await createAgent({ model, harness: harnessWith(), maxSteps: 1 }).turn('hi');
    expect(result).toMatchObject({ stopReason: 'stop', text: 'hello' });
  });

  it('aborting mid-tool cancels the running tool, answers the call and ends the turn', async () => {
    const gate = gateTool();
    const harness = harnessWith(gate.tool);
    const model = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'gate', arguments: { id: 'slow' } }] }]);
    const agent = createAgent({ model, harness });
    const controller = new AbortController();

    const turn = agent.turn('run slow', { signal: controller.signal });
    await gate.started('slow');
    controller.abort(new Error('user pressed stop'));
    const result = await turn;

    expect(result.stopReason).toBe('aborted');
    expect(gate.signals[0]!.aborted).toBe(true);
    expect(result.toolResults[0]).toMatchObject({ ok: false, callId: 'c1', error: { code: 'ABORTED' } });
    // The history stays valid for the next turn: the call has its answer.
    expect(agent.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true });
    model.assertAllUsed();
  });

  it('aborting during the model call cancels it and ends the turn; the next turn works', async () => {
    const model = createScriptedModel([waitForAbort, { text: 'back again' }]);
    const agent = createAgent({ model, harness: harnessWith() });
    const controller = new AbortController();

    const turn = agent.turn('think hard', { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    const result = await turn;

    expect(result).toMatchObject({ stopReason: 'aborted', text: '', steps: [] });
    expect(model.requests[0]!.signal?.aborted).toBe(true);
    expect(agent.messages).toEqual([{ role: 'user', content: 'think hard' }]);
    expect(await agent.turn('again')).toMatchObject({ stopReason: 'stop', text: 'back again' });
  });

  it('does not wait for a model that ignores its signal', async () => {
    const model = createScriptedModel([() => new Promise<never>(() => {})]);
    const controller = new AbortController();
    const turn = createAgent({ model, harness: harnessWith() }).turn('hang', { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    expect((await turn).stopReason).toBe('aborted');
  });

  it("the agent's own signal aborts its turns", async () => {
    const controller = new AbortController();
    const model = createScriptedModel([waitForAbort]);
    const agent = createAgent({ model, harness: harnessWith(), signal: controller.signal });
    const turn = agent.turn('go');
    await Promise.resolve();
    controller.abort();
    expect((await turn).stopReason).toBe('aborted');
    // A later turn under an aborted agent signal does not start and leaves the history as it was.
    const before = agent.messages.length;
    expect((await agent.turn('again')).stopReason).toBe('aborted');
    expect(agent.messages).toHaveLength(before);
    expect(model.requests).toHaveLength(1);
  });

  it.each<[FinishReason]>([['length'], ['content_filter'], ['error']])(
    'never runs tool calls of an answer that finished with %s: answers them NOT_EXECUTED and stops',
    async (finishReason) => {
      const runs: string[] = [];
      const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs));
      const model = createScriptedModel([{ text: 'partial', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.t' }, { id: 'c2', name: 'read_file', arguments: { path: 'a.txt' } }], finishReason }]);
      const agent = createAgent({ model, harness });

      const result = await agent.turn('read');

      expect(runs).toEqual([]);
      expect(result.stopReason).toBe(finishReason);
      expect(result.text).toBe('partial');
      expect(result.toolResults).toEqual([
        expect.objectContaining({ ok: false, callId: 'c1', attempts: 0, error: expect.objectContaining({ code: 'NOT_EXECUTED' }) }),
        expect.objectContaining({ ok: false, callId: 'c2', attempts: 0, error: expect.objectContaining({ code: 'NOT_EXECUTED' }) }),
      ]);
      expect(agent.messages.slice(-2)).toEqual([
        expect.objectContaining({ role: 'tool', toolCallId: 'c1', isError: true }),
        expect.objectContaining({ role: 'tool', toolCallId: 'c2', isError: true }),
      ]);
      model.assertAllUsed();
    },
  );

  it('stops with length when a text answer was cut off', async () => {
    const model = createScriptedModel([{ text: 'Once upon a', finishReason: 'length' }]);
    expect(await createAgent({ model, harness: harnessWith() }).turn('tell a story')).toMatchObject({ stopReason: 'length', text: 'Once upon a' });
  });

  it('rejects with MODEL_CALL_FAILED when the model call fails, the cause attached', async () => {
    const failure = new Error('503 from the provider');
    const model = createScriptedModel([
      () => {
        throw failure;
      },
    ]);
    const error = await createAgent({ model, harness: harnessWith() }).turn('hi').catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'MODEL_CALL_FAILED')).toBe(true);
    expect((error as Error).cause).toBe(failure);
  });

  it('rejects when the model is called beyond its script', async () => {
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }));
    const model = createScriptedModel([readA]);
    const error = await createAgent({ model, harness }).turn('go').catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'MODEL_CALL_FAILED')).toBe(true);
    expect(String((error as Error).cause)).toContain('beyond the script');
  });

  it('rejects an answer that breaks the spec with INVALID_MODEL_RESPONSE', async () => {
    const model = { id: 'broken', complete: async () => ({ text: 'x', finishReason: 'stop' }) as never };
    const error = await createAgent({ model, harness: harnessWith() }).turn('hi').catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'INVALID_MODEL_RESPONSE')).toBe(true);
  });

  it('refuses a second turn while one is running (AGENT_BUSY)', async () => {
    let answer: (() => void) | undefined;
    const model = createScriptedModel([() => new Promise((resolve) => (answer = () => resolve({ text: 'first' }))), { text: 'second' }]);
    const agent = createAgent({ model, harness: harnessWith() });
    const first = agent.turn('one');
    const error = await agent.turn('two').catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'AGENT_BUSY')).toBe(true);
    await Promise.resolve();
    answer!();
    expect((await first).text).toBe('first');
    expect((await agent.turn('two')).text).toBe('second');
  });

  it('sums usage over the steps, and leaves it undefined when no step reported any', async () => {
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }));
    const model = createScriptedModel([
      { ...readA, usage: { inputTokens: 10, outputTokens: 2 } },
      { text: 'done', usage: { inputTokens: 15, outputTokens: 3, cachedInputTokens: 8 } },
      { text: 'no usage' },
    ]);
    const agent = createAgent({ model, harness });
    expect((await agent.turn('one')).usage).toEqual({ inputTokens: 25, outputTokens: 5, cachedInputTokens: 8 });
    expect((await agent.turn('two')).usage).toBeUndefined();
  });

  it("uses a refusal as the answer's text when the text is empty", async () => {
    const model = createScriptedModel([{ refusal: 'I cannot help with that.' }]);
    const agent = createAgent({ model, harness: harnessWith() });
    expect((await agent.turn('bad request')).text).toBe('I cannot help with that.');
    expect(agent.messages.at(-1)).toEqual({ role: 'assistant', content: 'I cannot help with that.' });
  });

  it.each([
    [{ maxSteps: 0 }],
    [{ maxSteps: 1.5 }],
    [{ toolConcurrency: 0 }],
  ])('throws TypeError for invalid options %j', (options) => {
    expect(() => createAgent({ model: createScriptedModel([]), harness: harnessWith(), ...options })).toThrow(TypeError);
  });
});
