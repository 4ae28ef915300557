import type { AssistantMessage, ContentPart, Message, ToolMessage } from '@weir/core';
import { textOfParts } from '@weir/core';

/** A Gemini `Content` as sent. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: Record<string, unknown>[];
}

/** What the history becomes: the conversation, and the system prompt apart. */
export interface GeminiHistory {
  readonly contents: GeminiContent[];
  readonly systemInstruction: { parts: { text: string }[] } | undefined;
}

/**
 * The Gemini API's documented stand-in for a function call that has no signature of its own (a turn
 * another provider answered, or one recorded before signatures were kept): Gemini 3 rejects a call
 * in the current turn without one.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Maps the history to `contents`: system messages joined into `systemInstruction`; user messages as
 * `user` contents (images as `inlineData`, or `fileData` for a URL); an assistant turn as a `model`
 * content of its text and `functionCall` parts (arguments as objects, the call's id when it has one);
 * each batch of tool results as one `user` content of `functionResponse` parts, in the order of the
 * calls, `{ output }` or `{ error }` as the response, and the images of the results after them as
 * `inlineData`. Contents of the same role that follow each other are merged (the API wants turns to
 * alternate). The first call of a model turn that has no signature gets `SKIP_SIGNATURE`.
 * Throws `TypeError` for a message with an unknown role.
 */
export function toGeminiContents(messages: readonly Message[]): GeminiHistory {
  const contents: GeminiContent[] = [];
  const system: string[] = [];
  let callOrder: readonly string[] = [];
  let batch: ToolMessage[] = [];
  const add = (role: GeminiContent['role'], parts: Record<string, unknown>[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  const flush = () => {
    if (batch.length === 0) return;
    const rank = (message: ToolMessage) => {
      const position = callOrder.indexOf(message.toolCallId);
      return position === -1 ? Number.MAX_SAFE_INTEGER : position;
    };
    const ordered = [...batch].sort((a, b) => rank(a) - rank(b));
    add('user', [...ordered.map(functionResponse), ...ordered.flatMap((message) => (message.parts ?? []).filter((part) => part.type === 'image').map(mediaPart))]);
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
        if (message.content !== '') system.push(message.content);
        break;
      case 'user':
        add('user', message.parts === undefined ? textParts(message.content) : message.parts.map(userPart));
        break;
      case 'assistant':
        add('model', modelParts(message));
        callOrder = (message.toolCalls ?? []).map((call) => call.id);
        break;
      default:
        throw new TypeError(`Cannot send a message with role ${JSON.stringify((message as { role?: unknown }).role)}.`);
    }
  }
  flush();
  return { contents, systemInstruction: system.length === 0 ? undefined : { parts: [{ text: system.join('\n\n') }] } };
}

function modelParts(message: AssistantMessage): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = textParts(message.content);
  (message.toolCalls ?? []).forEach((call, index) => {
    const part: Record<string, unknown> = { functionCall: { name: call.name, args: argsObject(call.arguments), ...(call.id !== '' && { id: call.id }) } };
    if (index === 0) part['thoughtSignature'] = SKIP_SIGNATURE;
    parts.push(part);
  });
  return parts;
}

function functionResponse(message: ToolMessage): Record<string, unknown> {
  const text = message.parts === undefined ? message.content : textOfParts(message.parts);
  return { functionResponse: { name: message.toolName, response: message.isError === true ? { error: text } : { output: text }, id: message.toolCallId } };
}

function userPart(part: ContentPart): Record<string, unknown> {
  return part.type === 'image' ? mediaPart(part) : { text: textOfParts([part]) };
}

function mediaPart(part: ContentPart): Record<string, unknown> {
  if (part.type !== 'image') return { text: textOfParts([part]) };
  return 'data' in part ? { inlineData: { mimeType: part.mediaType, data: part.data } } : { fileData: { fileUri: part.url, ...(part.mediaType !== undefined && { mimeType: part.mediaType }) } };
}

function textParts(text: string): Record<string, unknown>[] {
  return text === '' ? [] : [{ text }];
}

/** Arguments as the object Gemini takes: a JSON text is parsed; text that is no JSON object is sent as `{}`. */
export function argsObject(args: string | Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (typeof args !== 'string') return { ...args };
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
