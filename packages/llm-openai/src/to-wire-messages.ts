import { describeImage, textOfParts, type ContentPart, type ImagePart, type Message, type ModelToolCall, type ToolMessage } from '@weir/core';

/**
 * When an assistant message's `reasoning` goes back to the provider as `reasoning_content`:
 * `'when-present'` (default) always when there is some, which DeepSeek's thinking mode requires
 * for turns with tool calls; `'with-tool-calls'` only on turns that called tools; `'never'` for
 * providers that reject the field.
 */
export type SendReasoning = 'when-present' | 'with-tool-calls' | 'never';

/** A Chat Completions message as sent. */
export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A part of a user message's content as Chat Completions takes it. */
export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

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
 *
 * Images: with `acceptsImages`, a user message's parts become `text` and `image_url` parts (inline
 * images as `data:` URLs). Tool messages take text only, and a user message between two tool
 * messages of one batch is rejected, so the images of a batch's results follow its last tool
 * message as one user message that names each call. Without `acceptsImages`, each image is a note
 * in the text, in its place: "[image: 12 KB image/png, not shown: this model takes no images]".
 */
export function toWireMessages(messages: readonly Message[], sendReasoning: SendReasoning, acceptsImages = false): WireMessage[] {
  const wire: WireMessage[] = [];
  // Images of the current batch's tool results, sent once its tool messages are done.
  let batchImages: { readonly call: ToolMessage; readonly images: readonly ImagePart[] }[] = [];
  const flush = () => {
    if (batchImages.length === 0) return;
    wire.push(toolImagesMessage(batchImages));
    batchImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    switch (message.role) {
      case 'system':
        wire.push({ role: 'system', content: message.content });
        break;
      case 'user':
        wire.push({ role: 'user', content: message.parts === undefined ? message.content : userContent(message.parts, acceptsImages) });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        const out: WireMessage = { role: 'assistant', content: message.content === '' && calls.length > 0 ? null : message.content };
        if (calls.length > 0) out.tool_calls = calls.map(toWireToolCall);
        const reasoning = message.reasoning ?? '';
        if (reasoning !== '' && (sendReasoning === 'when-present' || (sendReasoning === 'with-tool-calls' && calls.length > 0))) {
          out.reasoning_content = reasoning;
        }
        wire.push(out);
        break;
      }
      case 'tool': {
        const images = message.parts === undefined ? [] : message.parts.filter((part): part is ImagePart => part.type === 'image');
        let content = message.parts === undefined ? message.content : textOfParts(message.parts.map((part) => (part.type === 'image' && !acceptsImages ? imageNote(part) : part)));
        if (images.length > 0 && acceptsImages) {
          batchImages.push({ call: message, images });
          content = `${content === '' ? '' : `${content}\n\n`}[${images.length === 1 ? 'the image follows' : `${images.length} images follow`} in the next user message]`;
        }
        wire.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.isError === true ? markError(content) : content });
        break;
      }
      default:
        throw new TypeError(`Cannot send a message with role ${JSON.stringify((message as { role?: unknown }).role)}.`);
    }
  }
  flush();
  return wire;
}

/** A user message's parts: text and images for a model that takes images, else all text with notes. */
function userContent(parts: readonly ContentPart[], acceptsImages: boolean): string | WireContentPart[] {
  if (!acceptsImages) return textOfParts(parts.map((part) => (part.type === 'image' ? imageNote(part) : part)));
  return parts.map((part): WireContentPart => (part.type === 'image' ? imageUrl(part) : { type: 'text', text: textOfParts([part]) }));
}

/** The images of one batch's tool results, as the user message that follows the batch. */
function toolImagesMessage(batch: readonly { readonly call: ToolMessage; readonly images: readonly ImagePart[] }[]): WireMessage {
  const content: WireContentPart[] = [];
  for (const { call, images } of batch) {
    content.push({ type: 'text', text: `Images from the result of tool call ${call.toolCallId} (${call.toolName}):` });
    for (const image of images) content.push(imageUrl(image));
  }
  return { role: 'user', content };
}

function imageUrl(part: ImagePart): WireContentPart {
  return { type: 'image_url', image_url: { url: 'data' in part ? `data:${part.mediaType};base64,${part.data}` : part.url } };
}

function imageNote(part: ImagePart): ContentPart {
  return { type: 'text', text: `[image: ${describeImage(part)}, not shown: this model takes no images]` };
}

function toWireToolCall(call: ModelToolCall): WireToolCall {
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  return { id: call.id, type: 'function', function: { name: call.name, arguments: args } };
}

/** Chat Completions has no error flag on tool messages: the text itself must say so. */
function markError(content: string): string {
  return /^\s*error\b/i.test(content) ? content : `Error: ${content}`;
}
