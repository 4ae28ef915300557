import { describe, expect, it } from 'vitest';
import { ResponsesTurn } from './responses-turn.js';

const ids = { turn: 1, taken: new Set<string>() };
const final = (status: string, extra: Record<string, unknown> = {}) => ({ type: `response.${status === 'incomplete' ? 'incomplete' : 'completed'}`, response: { id: 'resp_1', status, output: [], usage: { input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 4 }, output_tokens_details: { reasoning_tokens: 3 } }, ...extra } });

describe('ResponsesTurn', () => {
  it('maps incomplete: max_output_tokens to length and drops the calls it cut', () => {
    const turn = new ResponsesTurn(ids);
    turn.acceptChunk({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '' } });
    turn.acceptChunk({ type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' });
    turn.acceptChunk(final('incomplete', { incomplete_details: { reason: 'max_output_tokens' } }));
    expect(turn.ended).toBe(true);
    expect(turn.response()).toEqual({
      text: '',
      toolCalls: [],
      finishReason: 'length',
      parts: [],
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, cachedInputTokens: 4, reasoningTokens: 3 },
      providerData: { 'openai-responses': { responseId: 'resp_1' } },
    });
  });

  it('maps incomplete: content_filter to content_filter', () => {
    const turn = new ResponsesTurn(ids);
    turn.acceptChunk(final('incomplete', { incomplete_details: { reason: 'content_filter' } }));
    expect(turn.response().finishReason).toBe('content_filter');
  });

  it('fails the turn on response.failed and on an error event, flat or nested', () => {
    const failed = new ResponsesTurn(ids);
    failed.acceptChunk({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } });
    expect(failed.failure).toEqual({ error: { code: 'server_error', message: 'boom' } });
    const flat = new ResponsesTurn(ids);
    flat.acceptChunk({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down' });
    expect(flat.failure).toEqual({ error: { type: 'error', code: 'rate_limit_exceeded', message: 'slow down' } });
    expect(flat.complete).toBe(false);
  });

  it('keeps the final form of a reasoning item (its encrypted content changes between added and done)', () => {
    const turn = new ResponsesTurn(ids);
    turn.acceptChunk({ type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', encrypted_content: 'first', summary: [] } });
    turn.acceptChunk({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'thinking' });
    turn.acceptChunk({ type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', encrypted_content: 'final', summary: [{ type: 'summary_text', text: 'thinking' }] } });
    turn.acceptChunk(final('completed'));
    const done = { id: 'rs_1', type: 'reasoning', encrypted_content: 'final', summary: [{ type: 'summary_text', text: 'thinking' }] };
    expect(turn.response().parts).toEqual([{ type: 'reasoning', text: 'thinking', providerData: { 'openai-responses': { item: done } } }]);
    expect(turn.response().reasoning).toBe('thinking');
  });
});
