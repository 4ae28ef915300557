import { ownProviderData, type ContentPart, type Message, type ModelToolCall } from '@weir/core';

/** The provider tag of this adapter's `providerData`. */
export const PROVIDER = 'anthropic';

/** One content block of the Messages API, as sent. */
export type WireBlock = Record<string, unknown> & { readonly type: string };

export interface WireMessage {
  readonly role: 'user' | 'assistant';
  readonly content: WireBlock[];
}

/** The history as the Messages API takes it, and where each history message ended up. */
export interface WireHistory {
  readonly system: WireBlock[];
  readonly messages: WireMessage[];
  /**
   * For each history message, the wire position of its last block (`[message, block]`), or
   * `undefined` when it sent nothing (a system message, an empty answer): where a cache breakpoint
   * "after messages[i]" goes.
   */
  readonly lastBlockOf: readonly (readonly [number, number] | undefined)[];
}

/**
 * Turns weir's history into `system` and `messages`:
 * - system messages become top-level `system` text blocks;
 * - an assistant message is sent from its `parts` when it has them, in their order: reasoning with
 *   this provider's `signature` as a `thinking` block and with `redactedData` as `redacted_thinking`,
 *   both exactly as received; reasoning without this provider's data (another provider's, after a
 *   fallback) is dropped, never sent as text; text as `text`; calls as `tool_use`. Without parts:
 *   its `content` and `toolCalls`;
 * - tool messages become `tool_result` blocks (with `is_error` for failures, images as image blocks)
 *   grouped in one user message per batch, in call order; a user message that follows joins it;
 * - consecutive messages of one role are merged (the API alternates roles).
 */
export function toAnthropicMessages(history: readonly Message[]): WireHistory {
  const system: WireBlock[] = [];
  const messages: WireMessage[] = [];
  const lastBlockOf: ([number, number] | undefined)[] = [];

  const push = (role: 'user' | 'assistant', blocks: WireBlock[]): [number, number] | undefined => {
    if (blocks.length === 0) return undefined;
    const last = messages.at(-1);
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
    return [messages.length - 1, messages.at(-1)!.content.length - 1];
  };

  for (const message of history) {
    switch (message.role) {
      case 'system':
        if (message.content !== '') system.push({ type: 'text', text: message.content });
        lastBlockOf.push(undefined);
        break;
      case 'user':
        lastBlockOf.push(push('user', message.parts === undefined ? textBlocks(message.content) : message.parts.flatMap(contentBlock)));
        break;
      case 'assistant':
        lastBlockOf.push(push('assistant', assistantBlocks(message)));
        break;
      case 'tool': {
        const content = message.parts === undefined ? message.content : message.parts.flatMap(contentBlock);
        const block: WireBlock = content === '' || content.length === 0 ? { type: 'tool_result', tool_use_id: message.toolCallId } : { type: 'tool_result', tool_use_id: message.toolCallId, content };
        lastBlockOf.push(push('user', [message.isError === true ? { ...block, is_error: true } : block]));
        break;
      }
    }
  }
  return { system, messages, lastBlockOf };
}

function assistantBlocks(message: Extract<Message, { role: 'assistant' }>): WireBlock[] {
  if (message.parts === undefined) {
    return [...textBlocks(message.content), ...(message.toolCalls ?? []).map(toolUse)];
  }
  const blocks: WireBlock[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'tool-call') {
      blocks.push(toolUse(part.call));
    } else {
      const own = ownProviderData(part.providerData, PROVIDER);
      if (typeof own?.['redactedData'] === 'string') blocks.push({ type: 'redacted_thinking', data: own['redactedData'] });
      else if (typeof own?.['signature'] === 'string') blocks.push({ type: 'thinking', thinking: part.text, signature: own['signature'] });
    }
  }
  return blocks;
}

function toolUse(call: ModelToolCall): WireBlock {
  const caller = ownProviderData(call.providerData, PROVIDER)?.['caller'];
  const block: WireBlock = { type: 'tool_use', id: call.id, name: call.name, input: inputOf(call.arguments) };
  return caller === undefined ? block : { ...block, caller };
}

/** The API takes `input` as an object: a string is parsed, and one that does not parse (a cut call) is `{}`. */
function inputOf(args: ModelToolCall['arguments']): unknown {
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function textBlocks(text: string): WireBlock[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function contentBlock(part: ContentPart): WireBlock[] {
  switch (part.type) {
    case 'text':
      return textBlocks(part.text);
    case 'image':
      return [
        'data' in part
          ? { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } }
          : { type: 'image', source: { type: 'url', url: part.url } },
      ];
    case 'resource':
      return textBlocks(part.text ?? `[resource: ${part.name ?? part.uri} <${part.uri}>]`);
  }
}
