import { ownProviderData, textOfParts, type AssistantMessage, type ContentPart, type Message, type ModelToolCall, type ProviderData, type ToolMessage } from '@weir/core';

/** The tag of this adapter's provider data. */
const GOOGLE = 'google';

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
 * content of its parts in order, each with its own `thoughtSignature` (see `modelParts`; `functionCall`
 * arguments as objects, and the call's id only when Gemini gave it);
 * each batch of tool results as one `user` content of `functionResponse` parts, in the order of the
 * calls, `{ output }` or `{ error }` as the response, and the images of the results after them as
 * `inlineData`. Contents of the same role that follow each other are merged (the API wants turns to
 * alternate).
 * Throws `TypeError` for a message with an unknown role.
 */
export function toGeminiContents(messages: readonly Message[]): GeminiHistory {
  const contents: GeminiContent[] = [];
  const system: string[] = [];
  let callOrder: readonly string[] = [];
  // The ids Gemini itself gave its calls: only those go back, on the call and on its response.
  const named = new Set<string>();
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
    add('user', [...ordered.map((message) => functionResponse(message, named.has(message.toolCallId))), ...ordered.flatMap((message) => (message.parts ?? []).filter((part) => part.type === 'image').map(mediaPart))]);
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
        add('model', modelParts(message, named));
        callOrder = (message.toolCalls ?? message.parts?.flatMap((part) => (part.type === 'tool-call' ? [part.call] : [])) ?? []).map((call) => call.id);
        break;
      default:
        throw new TypeError(`Cannot send a message with role ${JSON.stringify((message as { role?: unknown }).role)}.`);
    }
  }
  flush();
  return { contents, systemInstruction: system.length === 0 ? undefined : { parts: [{ text: system.join('\n\n') }] } };
}

/**
 * A model turn. With parts, in their order: text with its own signature; thought (reasoning) parts
 * only when they carry a Gemini signature (a thought summary need not go back; reasoning from
 * another provider is not Gemini's to read); calls with theirs. Without parts: its text, then its
 * calls. When no call of the turn has a Gemini signature, the first one gets `SKIP_SIGNATURE`.
 */
function modelParts(message: AssistantMessage, named: Set<string>): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  const pushCall = (call: ModelToolCall) => {
    const givenId = ownProviderData(call.providerData, GOOGLE)?.['id'] === call.id;
    if (givenId) named.add(call.id);
    const part: Record<string, unknown> = { functionCall: { name: call.name, args: argsObject(call.arguments), ...(givenId && { id: call.id }) } };
    const signature = signatureOf(call.providerData);
    if (signature !== undefined) part['thoughtSignature'] = signature;
    parts.push(part);
    calls.push(part);
  };
  if (message.parts === undefined) {
    parts.push(...textParts(message.content));
    for (const call of message.toolCalls ?? []) pushCall(call);
  } else {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        pushCall(part.call);
        continue;
      }
      const signature = signatureOf(part.providerData);
      if (part.type === 'reasoning') {
        if (signature !== undefined) parts.push({ text: part.text, thought: true, thoughtSignature: signature });
      } else if (part.text !== '' || signature !== undefined) {
        parts.push({ text: part.text, ...(signature !== undefined && { thoughtSignature: signature }) });
      }
    }
  }
  if (calls.length > 0 && !calls.some((call) => call['thoughtSignature'] !== undefined)) calls[0]!['thoughtSignature'] = SKIP_SIGNATURE;
  return parts;
}

function signatureOf(data: ProviderData | undefined): string | undefined {
  const signature = ownProviderData(data, GOOGLE)?.['thoughtSignature'];
  return typeof signature === 'string' ? signature : undefined;
}

function functionResponse(message: ToolMessage, withId: boolean): Record<string, unknown> {
  const text = message.parts === undefined ? message.content : textOfParts(message.parts);
  return { functionResponse: { name: message.toolName, response: message.isError === true ? { error: text } : { output: text }, ...(withId && { id: message.toolCallId }) } };
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
