import { textOfParts, type AssistantMessage, type ContentPart, type Message, type ToolMessage } from '@weir/core';

/** A Responses API input item as sent (the subset weir writes). */
export type ResponsesInputItem = Record<string, unknown>;

/**
 * Maps the history to Responses API input items: system and user messages as role messages (user
 * images as `input_image` parts, inline ones as `data:` URLs), an assistant turn as its text message
 * followed by one `function_call` item per call (`call_id`, name, arguments as JSON text), and each
 * batch of tool results as `function_call_output` items in the order of the calls they answer. A
 * failed result is marked `Error: ` (the API has no error flag); a result with images sends them as
 * `input_image` parts of its output. Throws `TypeError` for a message with an unknown role.
 */
export function toResponsesInput(messages: readonly Message[]): ResponsesInputItem[] {
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
  for (const message of messages) {
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
        callOrder = (message.toolCalls ?? []).map((call) => call.id);
        break;
      default:
        throw new TypeError(`Cannot send a message with role ${JSON.stringify((message as { role?: unknown }).role)}.`);
    }
  }
  flush();
  return input;
}

/** An assistant turn: its text as an assistant message, then its calls. */
function assistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  if (message.content !== '') items.push({ role: 'assistant', content: message.content });
  for (const call of message.toolCalls ?? []) {
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) });
  }
  return items;
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
