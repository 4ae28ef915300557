import { describe, expect, it } from 'vitest';
import { TurnAccumulator } from './turn-accumulator.js';

const IDS = { turn: 1, taken: new Set<string>() };
const chunk = (delta: Record<string, unknown>, finish: string | null = null, index = 0) => ({ choices: [{ index, delta, finish_reason: finish }] });

describe('TurnAccumulator', () => {
  it('is complete only when every choice it saw has finished, or [DONE] follows one finish', () => {
    const turn = new TurnAccumulator(IDS);
    turn.acceptChunk(chunk({ content: 'a' }));
    turn.acceptChunk(chunk({ content: 'b' }, null, 1));
    expect(turn.complete).toBe(false);
    turn.acceptChunk(chunk({}, 'stop'));
    expect(turn.complete).toBe(false);
    turn.markDone();
    expect(turn.complete).toBe(true);

    const both = new TurnAccumulator(IDS);
    both.acceptChunk(chunk({}, 'stop'));
    both.acceptChunk(chunk({}, 'stop', 1));
    expect(both.complete).toBe(true);
  });

  it('[DONE] without any finish reason is complete after text or whole tool calls, and only then', () => {
    const text = new TurnAccumulator(IDS);
    text.acceptChunk(chunk({ content: 'all of it' }));
    expect(text.complete).toBe(false);
    text.markDone();
    expect(text.complete).toBe(true);
    expect(text.response()).toEqual({ text: 'all of it', toolCalls: [], finishReason: 'stop' });

    const calls = new TurnAccumulator(IDS);
    calls.acceptChunk(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'read_file', arguments: '{"path":' } }] }));
    calls.acceptChunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }));
    calls.acceptChunk(chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'list_dir' } }] }));
    calls.markDone();
    expect(calls.complete).toBe(true);
    expect(calls.response()).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ id: 'a', arguments: '{"path":"x"}' }, { id: 'b', arguments: '' }] });

    // Arguments cut off, a call without a name, only reasoning, only blank text: a failed attempt.
    const cases = [
      [chunk({ content: 'Let me ', tool_calls: [{ index: 0, id: 'a', function: { name: 'write_file', arguments: '{"path":' } }] })],
      [chunk({ tool_calls: [{ index: 0, id: 'a', function: { arguments: '{}' } }] })],
      [chunk({ reasoning_content: 'thinking...' })],
      [chunk({ content: '\n' })],
    ];
    for (const chunks of cases) {
      const turn = new TurnAccumulator(IDS);
      for (const one of chunks) turn.acceptChunk(one);
      turn.markDone();
      expect(turn.complete, JSON.stringify(chunks)).toBe(false);
    }
  });

  it('reads Mistral thinking parts, reasoning_details text and Groq x_groq.usage', () => {
    const turn = new TurnAccumulator(IDS);
    const events = [
      ...turn.acceptChunk(chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Think. ' }] }, { type: 'text', text: 'Say.' }] })),
      ...turn.acceptChunk(chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'More.' }, { type: 'reasoning.encrypted', data: 'gAAA' }] })),
      ...turn.acceptChunk({ ...chunk({}, 'stop'), x_groq: { id: 'req_1', usage: { prompt_tokens: 3, completion_tokens: 4 } } }),
    ];
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Think. ' },
      { type: 'text-delta', text: 'Say.' },
      { type: 'reasoning-delta', text: 'More.' },
    ]);
    expect(turn.response()).toEqual({ text: 'Say.', reasoning: 'Think. More.', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 4 } });
  });

  it('splits <think> tags out of the content when asked, however the tags are cut', () => {
    const turn = new TurnAccumulator(IDS, { thinkTags: true });
    const events = ['<th', 'ink>Plan it.</th', 'ink>\n\nDone <', '3'].flatMap((content) => turn.acceptChunk(chunk({ content })));
    turn.acceptChunk(chunk({}, 'stop'));
    events.push(...turn.flush());
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Plan it.' },
      { type: 'text-delta', text: 'Done ' },
      { type: 'text-delta', text: '<3' },
    ]);
    expect(turn.response()).toEqual({ text: 'Done <3', reasoning: 'Plan it.', toolCalls: [], finishReason: 'stop' });
    // Off by default: the tags are text.
    const plain = new TurnAccumulator(IDS);
    plain.acceptChunk(chunk({ content: '<think>x</think>y' }, 'stop'));
    expect(plain.response().text).toBe('<think>x</think>y');
  });

  it('keeps only choice 0 as the answer', () => {
    const turn = new TurnAccumulator(IDS);
    const events = [...turn.acceptChunk(chunk({ content: 'zero' })), ...turn.acceptChunk(chunk({ content: 'one' }, 'stop', 1)), ...turn.acceptChunk(chunk({}, 'stop'))];
    expect(events).toEqual([{ type: 'text-delta', text: 'zero' }]);
    expect(turn.response().text).toBe('zero');
  });

  it('reads reasoning from reasoning_content, or from reasoning (OpenRouter, newer vLLM)', () => {
    const turn = new TurnAccumulator(IDS);
    turn.acceptChunk(chunk({ reasoning_content: 'a, ' }));
    turn.acceptChunk(chunk({ reasoning: 'b' }));
    turn.acceptChunk(chunk({ reasoning_content: null, content: 'c' }, 'stop'));
    expect(turn.response()).toEqual({ text: 'c', toolCalls: [], finishReason: 'stop', reasoning: 'a, b' });
  });

  it.each(['length', 'content_filter', 'error', 'insufficient_system_resource'])('drops the tool calls of an answer that ended by %s', (reason) => {
    const turn = new TurnAccumulator(IDS);
    turn.acceptChunk(chunk({ content: 'partial', tool_calls: [{ index: 0, id: 'a', function: { name: 'write_file', arguments: '{"path":' } }] }));
    turn.acceptChunk(chunk({}, reason));
    const response = turn.response();
    expect(response.toolCalls).toEqual([]);
    expect(response.text).toBe('partial');
    expect(response.finishReason).toBe(reason === 'insufficient_system_resource' ? 'error' : reason);
  });

  it('takes the last usage (running totals), ignores null usage, and never invents zeros', () => {
    const turn = new TurnAccumulator(IDS);
    turn.acceptChunk({ ...chunk({ content: 'x' }), usage: { prompt_tokens: 5, completion_tokens: 1 } });
    turn.acceptChunk({ ...chunk({}, 'stop'), usage: null });
    turn.acceptChunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, prompt_cache_hit_tokens: 4 } });
    expect(turn.response().usage).toEqual({ inputTokens: 5, outputTokens: 2, cachedInputTokens: 4 });
  });

  it('reads a whole completion: content parts, tool calls by position, null finish reason as finished', () => {
    const turn = new TurnAccumulator(IDS);
    const events = turn.acceptCompletion({
      choices: [
        {
          index: 0,
          message: {
            content: [{ type: 'text', text: 'Reading ' }, { type: 'text', text: 'both.' }],
            tool_calls: [
              { index: 0, function: { name: 'a', arguments: '{}' } },
              { index: 0, function: { name: 'b', arguments: { x: 1 } } },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    expect(turn.complete).toBe(true);
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'Reading ' },
      { type: 'text-delta', text: 'both.' },
    ]);
    expect(turn.response()).toEqual({
      text: 'Reading both.',
      toolCalls: [
        { id: 'call_1_0', name: 'a', arguments: '{}' },
        { id: 'call_1_1', name: 'b', arguments: '{"x":1}' },
      ],
      finishReason: 'tool_calls',
    });
  });

  it('refuses a body without choices', () => {
    expect(() => new TurnAccumulator(IDS).acceptCompletion({ object: 'list', data: [] })).toThrow(/no choices/);
    expect(() => new TurnAccumulator(IDS).acceptChunk('text')).toThrow(/not a JSON object/);
  });
});
