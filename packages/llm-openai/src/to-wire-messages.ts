import type { Message, ModelToolCall } from '@weir/core';

/**
 * When an assistant message's `reasoning` goes back to the provider as `reasoning_content`:
 * `'when-present'` (default) always when there is some, which DeepSeek's thinking mode requires
 * for turns with tool calls; `'with-tool-calls'` only on turns that called tools; `'never'` for
 * providers that reject the field.
 */
export type SendReasoning = 'when-present' | 'with-tool-calls' | 'never';

/** A Chat Completions message as sent. */
export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * Maps the history to Chat Completions messages: assistant tool calls with their ids and arguments
 * as JSON text, tool results under their call's id, a failed result marked `Error: ` so the model
 * knows it failed, reasoning sent back per `sendReasoning`. An assistant message that only called
 * tools has `content: null`, as OpenAI sends it. Throws `TypeError` for a message with an unknown
 * role (a programmer mistake).
 */
export function toWireMessages(messages: readonly Message[], sendReasoning: SendReasoning): WireMessage[] {
  return messages.map((message): WireMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        const wire: WireMessage = { role: 'assistant', content: message.content === '' && calls.length > 0 ? null : message.content };
        if (calls.length > 0) wire.tool_calls = calls.map(toWireToolCall);
        const reasoning = message.reasoning ?? '';
        if (reasoning !== '' && (sendReasoning === 'when-present' || (sendReasoning === 'with-tool-calls' && calls.length > 0))) {
          wire.reasoning_content = reasoning;
        }
        return wire;
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.isError === true ? markError(message.content) : message.content };
      default:
        throw new TypeError(`Cannot send a message with role ${JSON.stringify((message as { role?: unknown }).role)}.`);
    }
  });
}

function toWireToolCall(call: ModelToolCall): WireToolCall {
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  return { id: call.id, type: 'function', function: { name: call.name, arguments: args } };
}

/** Chat Completions has no error flag on tool messages: the text itself must say so. */
function markError(content: string): string {
  return /^\s*error\b/i.test(content) ? content : `Error: ${content}`;
}
