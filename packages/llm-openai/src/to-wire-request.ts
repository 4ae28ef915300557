import type { ModelRequest } from '@weir/core';
import type { CallIdContext } from './tool-call-assembler.js';
import { toWireMessages, type SendReasoning } from './to-wire-messages.js';

export interface WireRequestOptions {
  readonly model: string;
  readonly includeUsage: boolean;
  readonly sendReasoning: SendReasoning;
  readonly acceptsImages?: boolean;
  readonly extraBody: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The request body of one call: always streamed (`stream: true`, so the idle timer sees progress
 * and keep-alives; `complete()` gathers the stream), usage asked for with
 * `stream_options.include_usage`, the registry's tools as `{ type: 'function', function }` (left out
 * when there are none: some servers reject `tools: []`). `extraBody` adds fields (temperature,
 * max_tokens, parallel_tool_calls...) but cannot replace model, messages, tools or stream.
 * Throws `TypeError` for a message with an unknown role.
 */
export function toWireRequest(request: ModelRequest, options: WireRequestOptions): Record<string, unknown> {
  const extra = options.extraBody ?? {};
  const streamOptions = typeof extra['stream_options'] === 'object' && extra['stream_options'] !== null ? extra['stream_options'] : {};
  return {
    ...extra,
    model: options.model,
    messages: toWireMessages(request.messages, options.sendReasoning, options.acceptsImages ?? false),
    stream: true,
    ...(options.includeUsage && { stream_options: { ...streamOptions, include_usage: true } }),
    ...(request.tools.length > 0 && {
      tools: request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    }),
  };
}

/**
 * Where synthesised tool-call ids come from for the answer to `request`: its turn number (assistant
 * messages so far, plus one) and every id the history already uses. Never throws.
 */
export function callIdContext(request: ModelRequest): CallIdContext {
  let turn = 1;
  const taken = new Set<string>();
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      turn++;
      for (const call of message.toolCalls ?? []) taken.add(call.id);
    } else if (message.role === 'tool') {
      taken.add(message.toolCallId);
    }
  }
  return { turn, taken };
}
