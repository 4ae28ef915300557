import type { Message, ModelResponse } from '@weir/core';

/**
 * Messages in the shape the GenAI conventions give `gen_ai.input.messages` and
 * `gen_ai.output.messages`: `{ role, parts: [{ type: 'text', content } | { type: 'tool_call', id,
 * name, arguments } | { type: 'tool_call_response', id, response }] }`, as a JSON string. Images
 * are named by their media type, never copied (a trace is no place for megabytes of base64).
 * Written only when `captureContent` is on.
 */
export function messagesJson(messages: readonly Message[]): string {
  return JSON.stringify(messages.map(messageParts));
}

/** The model's answer as one output message. */
export function responseJson(response: ModelResponse): string {
  const parts: unknown[] = [];
  if (response.text !== '') parts.push({ type: 'text', content: response.text });
  for (const call of response.toolCalls) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: argumentsValue(call.arguments) });
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: response.finishReason }]);
}

/** The user's text of a turn as one input message. */
export function userTextJson(text: string): string {
  return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: text }] }]);
}

/** Arguments as JSON text: a string is what the model sent, an object is serialised. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[arguments that cannot be serialised]';
  }
}

function argumentsValue(value: string | Readonly<Record<string, unknown>>): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function messageParts(message: Message): unknown {
  switch (message.role) {
    case 'system':
      return { role: 'system', parts: [{ type: 'text', content: message.content }] };
    case 'user':
      return { role: 'user', parts: message.parts === undefined ? [{ type: 'text', content: message.content }] : message.parts.map(partOf) };
    case 'assistant': {
      const parts: unknown[] = message.content === '' ? [] : [{ type: 'text', content: message.content }];
      for (const call of message.toolCalls ?? []) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: argumentsValue(call.arguments) });
      return { role: 'assistant', parts };
    }
    case 'tool':
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId, response: message.content }] };
  }
}

function partOf(part: import('@weir/core').ContentPart): unknown {
  if (part.type === 'text') return { type: 'text', content: part.text };
  if (part.type === 'image') return { type: 'blob', modality: 'image', mime_type: part.mediaType ?? null, content: '[not recorded]' };
  return { type: 'uri', uri: part.uri, mime_type: part.mediaType ?? null };
}
