import type { ContentPart } from '@weir/core';
import { toContentParts, toParts } from './mcp-content.js';

/** One argument a server's prompt takes. */
export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A prompt a server offers (`prompts/list`), read loosely: a bad entry is left out, not fatal. */
export interface McpPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** In the server's order (the order positional values fill them in the CLI). */
  readonly arguments: readonly McpPromptArgument[];
}

/** One message of a fetched prompt, as the core's content parts. */
export interface McpPromptMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly ContentPart[];
}

/** What `prompts/get` gave: the messages, their blocks as the core's parts (an image an image, an embedded resource a resource part with its text). */
export interface McpPromptResult {
  readonly description?: string;
  readonly messages: readonly McpPromptMessage[];
}

/**
 * Reads one entry of `prompts/list` as sent: a prompt with a name, its optional title and
 * description, and its arguments (an argument without a name is left out). `undefined` for an
 * entry that is not a prompt. Never throws.
 */
export function readPrompt(raw: unknown): McpPrompt | undefined {
  if (!isRecord(raw) || typeof raw.name !== 'string' || raw.name === '') return undefined;
  const args = Array.isArray(raw.arguments) ? raw.arguments : [];
  const prompt: McpPrompt = {
    name: raw.name,
    ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    arguments: args.flatMap((arg): McpPromptArgument[] =>
      isRecord(arg) && typeof arg.name === 'string' && arg.name !== ''
        ? [{ name: arg.name, ...(typeof arg.description === 'string' ? { description: arg.description } : {}), required: arg.required === true }]
        : [],
    ),
  };
  return prompt;
}

/**
 * Reads a `prompts/get` answer: each message's content (one block, or a list) as content parts,
 * through the same conversion as a tool's result (an unknown block becomes a line naming it, never
 * dropped). A role other than `assistant` is taken as `user`. Never throws.
 */
export function readPromptResult(raw: Readonly<Record<string, unknown>>): McpPromptResult {
  const messages = Array.isArray(raw.messages) ? raw.messages.filter(isRecord) : [];
  return {
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    messages: messages.map((message) => {
      const blocks = Array.isArray(message.content) ? message.content : message.content === undefined ? [] : [message.content];
      return { role: message.role === 'assistant' ? 'assistant' : 'user', parts: toContentParts(toParts(blocks)) };
    }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
