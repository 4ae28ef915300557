import { ownProviderData, type AssistantMessage, type AssistantPart, type ContentPart, type Message, type ProviderData, type ToolMessage } from '@weir/core';
import type { SpecVersion } from './ai-sdk-language-model.js';

/** An AI SDK prompt message (any spec version; the shapes that differ are made per version below). */
export type PromptMessage = { role: 'system'; content: string } | { role: 'user' | 'assistant' | 'tool'; content: Record<string, unknown>[] };

/**
 * weir's history as an AI SDK prompt (`LanguageModelV2/V3/V4Prompt`): system, user (text, images as
 * file parts), assistant (its parts in order: text, reasoning, tool calls, each with its provider
 * data as `providerOptions`), and the tool messages of a batch as one tool message. Provider data
 * goes back only from this model's own `tag` (what this bridge recorded is the SDK's own
 * `providerMetadata`, which the SDK takes back as `providerOptions`); a reasoning part with only
 * another provider's data is dropped.
 */
export function toAiSdkPrompt(messages: readonly Message[], spec: SpecVersion, tag: string): PromptMessage[] {
  const prompt: PromptMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: message.parts === undefined ? [{ type: 'text', text: message.content }] : message.parts.map((part) => userPart(part, spec)) });
        break;
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantContent(message, tag) });
        break;
      case 'tool': {
        const last = prompt[prompt.length - 1];
        const part = toolResultPart(message, spec);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function userPart(part: ContentPart, spec: SpecVersion): Record<string, unknown> {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'resource') return { type: 'text', text: part.text ?? `[resource: ${part.name ?? part.uri} <${part.uri}>]` };
  const inline = 'data' in part;
  const mediaType = part.mediaType ?? 'image/*';
  if (spec === 'v4') return { type: 'file', mediaType, data: inline ? { type: 'data', data: part.data } : { type: 'url', url: new URL(part.url) } };
  return { type: 'file', mediaType, data: inline ? part.data : new URL(part.url) };
}

function assistantContent(message: AssistantMessage, tag: string): Record<string, unknown>[] {
  const parts: readonly AssistantPart[] =
    message.parts ??
    [
      ...(message.reasoning ? [{ type: 'reasoning' as const, text: message.reasoning }] : []),
      ...(message.content !== '' ? [{ type: 'text' as const, text: message.content }] : []),
      ...(message.toolCalls ?? []).map((call) => ({ type: 'tool-call' as const, call })),
    ];
  const content: Record<string, unknown>[] = [];
  for (const part of parts) {
    if (part.type === 'tool-call') {
      const { call } = part;
      content.push(withOptions({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: parsedInput(call.arguments) }, call.providerData, tag));
    } else if (part.type === 'reasoning') {
      const own = ownProviderData(part.providerData, tag);
      // Another provider's reasoning (after a fallback) is neither sent nor turned into answer text.
      if (own === undefined && part.providerData !== undefined) continue;
      content.push(withOptions({ type: 'reasoning', text: part.text }, part.providerData, tag));
    } else {
      content.push(withOptions({ type: 'text', text: part.text }, part.providerData, tag));
    }
  }
  return content;
}

/** The part with this model's own recorded provider metadata as its `providerOptions`. */
function withOptions(part: Record<string, unknown>, data: ProviderData | undefined, tag: string): Record<string, unknown> {
  const own = ownProviderData(data, tag);
  if (own !== undefined) part.providerOptions = own;
  return part;
}

/** The SDK's prompt carries tool inputs as parsed JSON; an input that does not parse goes as its text. */
function parsedInput(args: string | Readonly<Record<string, unknown>>): unknown {
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function toolResultPart(message: ToolMessage, spec: SpecVersion): Record<string, unknown> {
  const output =
    message.isError === true
      ? { type: 'error-text', value: message.content }
      : message.parts === undefined
        ? { type: 'text', value: message.content }
        : { type: 'content', value: message.parts.map((part) => toolContentPart(part, spec)) };
  return { type: 'tool-result', toolCallId: message.toolCallId, toolName: message.toolName, output };
}

function toolContentPart(part: ContentPart, spec: SpecVersion): Record<string, unknown> {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'resource') return { type: 'text', text: part.text ?? `[resource: ${part.name ?? part.uri} <${part.uri}>]` };
  if ('data' in part) {
    if (spec === 'v2') return { type: 'media', data: part.data, mediaType: part.mediaType };
    if (spec === 'v3') return { type: 'image-data', data: part.data, mediaType: part.mediaType };
    return { type: 'file', mediaType: part.mediaType, data: { type: 'data', data: part.data } };
  }
  if (spec === 'v2') return { type: 'text', text: `[image: ${part.url}]` };
  if (spec === 'v3') return { type: 'image-url', url: part.url };
  return { type: 'file', mediaType: part.mediaType ?? 'image/*', data: { type: 'url', url: new URL(part.url) } };
}
