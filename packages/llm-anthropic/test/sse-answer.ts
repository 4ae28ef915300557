import type { ScriptedResponse } from '../../llm-openai/test/loopback-server.js';

type Block =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> };

export interface AnswerUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
}

/**
 * A Messages API stream as the API sends it: `message_start`, each block opened, streamed in small
 * deltas (thinking, then its signature; tool input as JSON fragments) and closed, a `ping`, then
 * `message_delta` with the stop reason and the cumulative usage, and `message_stop`. `cutAfter`
 * ends the body after that many events (a cut stream); `errorAfter` sends an `error` event there.
 */
export function sseAnswer(blocks: readonly Block[], stopReason: string, usage: AnswerUsage, extra: { readonly id?: string; readonly errorAfter?: number } = {}): ScriptedResponse {
  const events: [string, unknown][] = [];
  const start = { input_tokens: usage.input_tokens, output_tokens: 1, cache_read_input_tokens: usage.cache_read_input_tokens ?? 0, cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0 };
  events.push(['message_start', { type: 'message_start', message: { id: extra.id ?? 'msg_loopback', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: start } }]);
  blocks.forEach((block, index) => {
    const opened =
      block.type === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : block.type === 'text' ? { type: 'text', text: '' } : block.type === 'tool_use' ? { type: 'tool_use', id: block.id, name: block.name, input: {} } : block;
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: opened }]);
    const delta = (body: Record<string, unknown>) => events.push(['content_block_delta', { type: 'content_block_delta', index, delta: body }]);
    if (block.type === 'thinking') {
      for (const piece of pieces(block.thinking)) delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'text') {
      for (const piece of pieces(block.text)) delta({ type: 'text_delta', text: piece });
    } else if (block.type === 'tool_use') {
      const json = Object.keys(block.input).length === 0 ? '' : JSON.stringify(block.input);
      for (const piece of json === '' ? [''] : pieces(json)) delta({ type: 'input_json_delta', partial_json: piece });
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    if (index === 0) events.push(['ping', { type: 'ping' }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  if (extra.errorAfter !== undefined) events.splice(extra.errorAfter, events.length, ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
  return { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': 'req_loopback' }, body: events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('') };
}

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += 7) out.push(text.slice(at, at + 7));
  return out.length === 0 ? [''] : out;
}
