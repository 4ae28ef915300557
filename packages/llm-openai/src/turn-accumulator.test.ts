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

  it('[DONE] without any finish reason is not complete', () => {
    const turn = new TurnAccumulator(IDS);
    turn.acceptChunk(chunk({ content: 'half' }));
    turn.markDone();
    expect(turn.complete).toBe(false);
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
    expect(events[0]).toEqual({ type: 'text-delta', text: 'Reading both.' });
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
