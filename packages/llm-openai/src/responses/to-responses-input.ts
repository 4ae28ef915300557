import { ownProviderData, textOfParts, type AssistantMessage, type ContentPart, type Message, type ModelToolCall, type ToolMessage } from '@weir/core';
import { RESPONSES_PROVIDER } from './responses-turn.js';

/** A Responses API input item as sent (the subset weir writes). */
export type ResponsesInputItem = Record<string, unknown>;

/**
 * Maps the history to Responses API input items: system and user messages as role messages (user
 * images as `input_image` parts, inline ones as `data:` URLs), an assistant turn as its items (see
 * `assistantItems`: reasoning items back byte for byte, `function_call` items with `call_id`, name
 * and arguments as JSON text), and each
 * batch of tool results as `function_call_output` items in the order of the calls they answer. A
 * failed result is marked `Error: ` (the API has no error flag); a result with images sends them as
 * `input_image` parts of its output. Messages up to `coveredThrough` (held by the stored response a
 * request continues) are left out. Throws `TypeError` for a message with an unknown role.
 */
export function toResponsesInput(messages: readonly Message[], coveredThrough = -1): ResponsesInputItem[] {
  const input: ResponsesInputItem[] = [];
  let callOrder: readonly string[] = [];
  let batch: ToolMessage[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const rank = (message: ToolMessage) => {
      const position = callOrder.indexOf(message.toolCallId);
      return position === -1 ? Number.MAX_SAFE_INTEGER : position;
    };
    // Stable: results of unknown calls keep their place after the known ones.
    for (const message of [...batch].sort((a, b) => rank(a) - rank(b))) input.push(functionCallOutput(message));
    batch = [];
  };
  for (const [index, message] of messages.entries()) {
    if (index <= coveredThrough) {
      // Held by the stored response this request continues: only its call order is needed here.
      if (message.role === 'assistant') callOrder = (message.toolCalls ?? []).map((call) => call.id);
      continue;
    }
    if (message.role === 'tool') {
      batch.push(message);
      continue;
    }
    flush();
    switch (message.role) {
      case 'system':
        input.push({ role: 'system', content: message.content });
        break;
      case 'user':
        input.push({ role: 'user', content: message.parts === undefined ? message.content : message.parts.map(inputPart) });
        break;
      case 'assistant':
        input.push(...assistantItems(message));
        callOrder = (message.toolCalls ?? message.parts?.flatMap((part) => (part.type === 'tool-call' ? [part.call] : [])) ?? []).map((call) => call.id);
        break;
      default:
        throw new TypeError(`Cannot send a message with role ${JSON.stringify((message as { role?: unknown }).role)}.`);
    }
  }
  flush();
  return input;
}

/**
 * An assistant turn. With parts, in their order: a reasoning part that holds this API's item goes
 * back as that item, exactly as received (other reasoning is not this API's to send: dropped); text
 * as an assistant message (an `output_text` message with its item id when it came from this API);
 * calls as `function_call` items (with their item id when they came from this API). Without parts
 * (an older session, another adapter): its text, then its calls.
 */
function assistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  if (message.parts === undefined) {
    if (message.content !== '') items.push({ role: 'assistant', content: message.content });
    for (const call of message.toolCalls ?? []) items.push(functionCall(call));
    return items;
  }
  for (const part of message.parts) {
    if (part.type === 'reasoning') {
      const item = ownProviderData(part.providerData, RESPONSES_PROVIDER)?.['item'];
      if (typeof item === 'object' && item !== null) items.push(item as ResponsesInputItem);
    } else if (part.type === 'text') {
      if (part.text === '') continue;
      const id = ownProviderData(part.providerData, RESPONSES_PROVIDER)?.['id'];
      items.push(typeof id === 'string' ? { type: 'message', role: 'assistant', id, content: [{ type: 'output_text', text: part.text, annotations: [] }] } : { role: 'assistant', content: part.text });
    } else {
      items.push(functionCall(part.call));
    }
  }
  return items;
}

function functionCall(call: ModelToolCall): ResponsesInputItem {
  const id = ownProviderData(call.providerData, RESPONSES_PROVIDER)?.['id'];
  return {
    type: 'function_call',
    ...(typeof id === 'string' && { id }),
    call_id: call.id,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  };
}

function functionCallOutput(message: ToolMessage): ResponsesInputItem {
  const hasImages = message.parts?.some((part) => part.type === 'image') === true;
  if (!hasImages) {
    const text = message.parts === undefined ? message.content : textOfParts(message.parts);
    return { type: 'function_call_output', call_id: message.toolCallId, output: message.isError === true ? markError(text) : text };
  }
  const parts = message.parts!.map(inputPart);
  if (message.isError === true) parts.unshift({ type: 'input_text', text: 'Error:' });
  return { type: 'function_call_output', call_id: message.toolCallId, output: parts };
}

function inputPart(part: ContentPart): Record<string, unknown> {
  if (part.type === 'image') return { type: 'input_image', image_url: 'data' in part ? `data:${part.mediaType};base64,${part.data}` : part.url, detail: 'auto' };
  return { type: 'input_text', text: textOfParts([part]) };
}

/** No error flag on a function call's output: the text itself must say so. */
function markError(content: string): string {
  return /^\s*error\b/i.test(content) ? content : `Error: ${content}`;
}
