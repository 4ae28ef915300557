import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, ModelStreamEvent } from '@weir/core';
import { createScriptedModel } from './create-scripted-model.js';

const request = (messages: Message[] = [{ role: 'user', content: 'hi' }], signal?: AbortSignal): ModelRequest => ({ messages, tools: [], signal });

describe('createScriptedModel', () => {
  it('fills in what a step leaves out', async () => {
    const model = createScriptedModel([{}, { toolCalls: [{ name: 'read_file', arguments: '{"path":"a"}' }, { name: 'list_dir' }] }]);
    expect(await model.complete(request())).toEqual({ text: '', toolCalls: [], finishReason: 'stop' });
    expect(await model.complete(request())).toEqual({
      text: '',
      toolCalls: [
        { id: 'call_2_1', name: 'read_file', arguments: '{"path":"a"}' },
        { id: 'call_2_2', name: 'list_dir', arguments: {} },
      ],
      finishReason: 'tool_calls',
    });
  });

  it('keeps what a step says, finish reason included', async () => {
    const model = createScriptedModel([{ text: 'cut', toolCalls: [{ id: 'x', name: 't' }], finishReason: 'length', usage: { inputTokens: 3, outputTokens: 4 } }]);
    expect(await model.complete(request())).toEqual({
      text: 'cut',
      toolCalls: [{ id: 'x', name: 't', arguments: {} }],
      finishReason: 'length',
      usage: { inputTokens: 3, outputTokens: 4 },
    });
  });

  it('calls a function step with the live request and the call number', async () => {
    const seen: [string, number][] = [];
    const model = createScriptedModel([
      { text: 'first' },
      (live, call) => {
        seen.push([live.messages.at(-1)!.content, call]);
        return { text: `echo ${live.messages.length}` };
      },
    ]);
    await model.complete(request());
    const response = await model.complete(request([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]));
    expect(seen).toEqual([['b', 2]]);
    expect(response.text).toBe('echo 2');
  });

  it('records each request with the history as it was at that call', async () => {
    const history: Message[] = [{ role: 'user', content: 'one' }];
    const model = createScriptedModel([{ text: 'a' }, { text: 'b' }]);
    await model.complete(request(history));
    history.push({ role: 'assistant', content: 'a' }, { role: 'user', content: 'two' });
    await model.complete(request(history));
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.messages.map((message) => message.content)).toEqual(['one']);
    expect(model.requests[1]!.messages.map((message) => message.content)).toEqual(['one', 'a', 'two']);
  });

  it('rejects a call beyond the script, loudly, and records it', async () => {
    const model = createScriptedModel([{ text: 'only' }]);
    await model.complete(request());
    await expect(model.complete(request([{ role: 'user', content: 'again?' }]))).rejects.toThrow(/call 2 is beyond the script \(1 step\).*again\?/);
    expect(model.requests).toHaveLength(2);
  });

  it('reports steps left unused', async () => {
    const model = createScriptedModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    expect(model.remaining).toBe(3);
    await model.complete(request());
    expect(model.remaining).toBe(2);
    expect(() => model.assertAllUsed()).toThrow(/2 of 3 steps were not used/);
    await model.complete(request());
    await model.complete(request());
    expect(model.remaining).toBe(0);
    expect(() => model.assertAllUsed()).not.toThrow();
  });

  it('fails a call whose step function throws', async () => {
    const model = createScriptedModel([
      () => {
        throw new Error('provider down');
      },
    ]);
    await expect(model.complete(request())).rejects.toThrow('provider down');
  });

  it('rejects an aborted call with its reason without using a step', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const model = createScriptedModel([{ text: 'kept' }]);
    await expect(model.complete(request(undefined, controller.signal))).rejects.toThrow('cancelled');
    expect(model.remaining).toBe(1);
  });

  it('offers stream() only when asked, replaying the step as deltas', async () => {
    expect(createScriptedModel([]).stream).toBeUndefined();
    const model = createScriptedModel([{ text: 'streamed answer here', toolCalls: [{ id: 'c', name: 't', arguments: '{}' }] }], { stream: true });
    const events: ModelStreamEvent[] = [];
    for await (const event of model.stream!(request())) events.push(event);
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(text).toBe('streamed answer here');
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: 'finish', response: { text: 'streamed answer here', toolCalls: [{ id: 'c', name: 't', arguments: '{}' }], finishReason: 'tool_calls' } });
    expect(model.remaining).toBe(0);
  });
});
