import { partsSummary, type AssistantPart, type FinishReason, type ModelResponse, type ModelStreamEvent, type ModelToolCall, type Usage } from '@weir/core';
import { AnthropicError } from './anthropic-error.js';
import { PROVIDER } from './to-anthropic-messages.js';

type Json = Record<string, unknown>;

/** A content block being assembled, by its stream index. */
interface OpenBlock {
  readonly type: string;
  text: string;
  signature: string | undefined;
  /** redacted_thinking's opaque data. */
  readonly data: string | undefined;
  readonly id: string;
  readonly name: string;
  /** input_json_delta fragments, joined at the end; `input` when the block came whole. */
  readonly json: string[];
  readonly input: unknown;
  /** The ordinal of a client tool call among the answer's tool calls. */
  readonly callIndex: number;
  /** A programmatic tool call's `caller` (the code execution that made it), sent back with it. */
  readonly caller: unknown;
  citations: unknown[] | undefined;
}

/**
 * Builds one answer from the Messages API's events (`message_start`, `content_block_*`,
 * `message_delta`, `message_stop`; `ping` ignored) or from a whole `message` body, in block order:
 * `text`, `thinking` (with its `signature_delta`) and `redacted_thinking` become parts, their
 * provider data byte for byte; `tool_use` becomes a call (arguments the joined `input_json_delta`,
 * `""` being `{}`). Server tools' blocks (`server_tool_use`, `*_tool_result`) are not client calls:
 * they go into the message's provider data, not the parts. Usage is `message_start`'s, overridden
 * by every non-null field of each `message_delta` (it is cumulative). `accept` returns the events
 * for the consumer; an `error` event throws a `PROVIDER_UNAVAILABLE` (retryable when overloaded)
 * or the matching code.
 */
export class MessageAccumulator {
  readonly #blocks = new Map<number, OpenBlock>();
  readonly #order: number[] = [];
  #calls = 0;
  #id: string | undefined;
  #model: string | undefined;
  #usage: Json = {};
  #stopReason: string | null | undefined;
  #stopSequence: string | null | undefined;
  #stopped = false;
  readonly #serverBlocks: unknown[] = [];

  /** True once `message_stop` (or a whole message) was read: the answer is complete. */
  get complete(): boolean {
    return this.#stopped;
  }

  /** Reads one stream event; returns the deltas it carries. */
  accept(event: Json): ModelStreamEvent[] {
    switch (event['type']) {
      case 'message_start': {
        const message = record(event['message']);
        this.#start(message);
        const events: ModelStreamEvent[] = [];
        // With programmatic tool calling, message_start may already hold whole blocks.
        const content = Array.isArray(message['content']) ? message['content'] : [];
        content.forEach((block, index) => this.#open(index, record(block), events));
        return events;
      }
      case 'content_block_start': {
        const events: ModelStreamEvent[] = [];
        this.#open(indexOf(event), record(event['content_block']), events);
        return events;
      }
      case 'content_block_delta':
        return this.#delta(indexOf(event), record(event['delta']));
      case 'message_delta': {
        const delta = record(event['delta']);
        if ('stop_reason' in delta) this.#stopReason = delta['stop_reason'] as string | null;
        if ('stop_sequence' in delta) this.#stopSequence = delta['stop_sequence'] as string | null;
        this.#mergeUsage(event['usage']);
        return [];
      }
      case 'message_stop':
        this.#stopped = true;
        return [];
      case 'error':
        throw streamError(record(event['error']));
      default:
        // ping, content_block_stop, and event types newer than this adapter.
        return [];
    }
  }

  /** Reads a whole (non-streamed) `message` body; returns its content as deltas, for `stream()`. */
  acceptMessage(message: Json): ModelStreamEvent[] {
    if (message['type'] === 'error') throw streamError(record(message['error']));
    this.#start(message);
    const events: ModelStreamEvent[] = [];
    const content = Array.isArray(message['content']) ? message['content'] : [];
    content.forEach((block, index) => this.#open(index, record(block), events));
    this.#stopReason = (message['stop_reason'] as string | null | undefined) ?? null;
    this.#stopSequence = (message['stop_sequence'] as string | null | undefined) ?? null;
    this.#stopped = true;
    return events;
  }

  /** The whole answer. */
  response(): ModelResponse {
    const parts: AssistantPart[] = [];
    for (const index of this.#order) {
      const part = this.#part(this.#blocks.get(index)!);
      if (part !== undefined) parts.push(part);
    }
    const { text, reasoning, toolCalls } = partsSummary(parts);
    const finishReason = toFinishReason(this.#stopReason);
    const usage = toUsage(this.#usage);
    const providerData = this.#providerData();
    const refused = this.#stopReason === 'refusal';
    return {
      text,
      toolCalls,
      finishReason,
      parts,
      ...(reasoning === undefined ? {} : { reasoning }),
      ...(usage === undefined ? {} : { usage }),
      ...(refused ? { refusal: text === '' ? 'The model declined to answer (stop_reason: refusal).' : text } : {}),
      ...(providerData === undefined ? {} : { providerData }),
    };
  }

  #start(message: Json): void {
    // With programmatic tool calling, message_start may already say why the message stopped.
    if (typeof message['stop_reason'] === 'string') this.#stopReason = message['stop_reason'];
    if (typeof message['id'] === 'string') this.#id = message['id'];
    if (typeof message['model'] === 'string') this.#model = message['model'];
    this.#mergeUsage(message['usage']);
  }

  #mergeUsage(usage: unknown): void {
    if (typeof usage !== 'object' || usage === null) return;
    for (const [key, value] of Object.entries(usage)) if (value !== null && value !== undefined) this.#usage[key] = value;
  }

  #open(index: number, block: Json, events: ModelStreamEvent[]): void {
    const type = typeof block['type'] === 'string' ? block['type'] : 'unknown';
    if (type !== 'text' && type !== 'thinking' && type !== 'redacted_thinking' && type !== 'tool_use') {
      this.#serverBlocks.push(block);
      return;
    }
    const input = block['input'];
    const open: OpenBlock = {
      type,
      text: type === 'text' ? str(block['text']) : type === 'thinking' ? str(block['thinking']) : '',
      signature: typeof block['signature'] === 'string' && block['signature'] !== '' ? block['signature'] : undefined,
      data: typeof block['data'] === 'string' ? block['data'] : undefined,
      id: str(block['id']),
      name: str(block['name']),
      json: [],
      // A streamed tool_use starts with `input: {}` and sends its JSON as deltas; a whole one holds it.
      input: typeof input === 'object' && input !== null && Object.keys(input).length > 0 ? input : undefined,
      callIndex: type === 'tool_use' ? this.#calls++ : -1,
      // `direct` (the model itself called it) is every ordinary call: only another caller is kept.
      caller: (block['caller'] as { type?: unknown } | undefined)?.type === 'direct' ? undefined : block['caller'],
      citations: Array.isArray(block['citations']) && block['citations'].length > 0 ? [...block['citations']] : undefined,
    };
    if (!this.#blocks.has(index)) this.#order.push(index);
    this.#blocks.set(index, open);
    if (open.text !== '') events.push(type === 'text' ? { type: 'text-delta', text: open.text } : { type: 'reasoning-delta', text: open.text });
    if (type === 'tool_use') {
      events.push({ type: 'tool-call-delta', index: open.callIndex, id: open.id, name: open.name, argumentsDelta: open.input === undefined ? '' : JSON.stringify(open.input) });
    }
  }

  #delta(index: number, delta: Json): ModelStreamEvent[] {
    const block = this.#blocks.get(index);
    if (block === undefined) return [];
    switch (delta['type']) {
      case 'text_delta': {
        const text = str(delta['text']);
        block.text += text;
        return text === '' ? [] : [{ type: 'text-delta', text }];
      }
      case 'thinking_delta': {
        const text = str(delta['thinking']);
        block.text += text;
        return text === '' ? [] : [{ type: 'reasoning-delta', text }];
      }
      case 'signature_delta':
        block.signature = (block.signature ?? '') + str(delta['signature']);
        return [];
      case 'input_json_delta': {
        const fragment = str(delta['partial_json']);
        block.json.push(fragment);
        return [{ type: 'tool-call-delta', index: block.callIndex, argumentsDelta: fragment }];
      }
      case 'citations_delta':
        (block.citations ??= []).push(delta['citation']);
        return [];
      default:
        return [];
    }
  }

  #part(block: OpenBlock): AssistantPart | undefined {
    switch (block.type) {
      case 'text':
        return block.citations === undefined ? { type: 'text', text: block.text } : { type: 'text', text: block.text, providerData: { [PROVIDER]: { citations: block.citations } } };
      case 'thinking':
        return { type: 'reasoning', text: block.text, ...(block.signature === undefined ? {} : { providerData: { [PROVIDER]: { signature: block.signature } } }) };
      case 'redacted_thinking':
        return { type: 'reasoning', text: '', providerData: { [PROVIDER]: { redactedData: block.data ?? '' } } };
      case 'tool_use': {
        const joined = block.json.join('');
        const args: ModelToolCall['arguments'] = block.input !== undefined && joined === '' ? (block.input as Record<string, unknown>) : joined.trim() === '' ? {} : joined;
        const call: ModelToolCall = block.caller === undefined ? { id: block.id, name: block.name, arguments: args } : { id: block.id, name: block.name, arguments: args, providerData: { [PROVIDER]: { caller: block.caller } } };
        return { type: 'tool-call', call };
      }
      default:
        return undefined;
    }
  }

  #providerData(): ModelResponse['providerData'] {
    const data: Json = {};
    if (this.#id !== undefined) data['id'] = this.#id;
    if (this.#model !== undefined) data['model'] = this.#model;
    if (this.#stopReason !== undefined && this.#stopReason !== null) data['stopReason'] = this.#stopReason;
    if (typeof this.#stopSequence === 'string') data['stopSequence'] = this.#stopSequence;
    if (this.#serverBlocks.length > 0) data['serverBlocks'] = this.#serverBlocks;
    return Object.keys(data).length === 0 ? undefined : { [PROVIDER]: data };
  }
}

/**
 * `stop_reason` in weir's words: `end_turn`, `stop_sequence` and `pause_turn` (a server tool's
 * long turn paused; weir runs no server tools) are `stop`; `tool_use` is `tool_calls`; `max_tokens`
 * and `model_context_window_exceeded` are `length` (so a call cut inside never runs); `refusal` is
 * `content_filter`. An answer without one (a stream cut before `message_delta`) is `error`.
 */
export function toFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'error';
  }
}

/**
 * weir's usage from Anthropic's: `input_tokens` excludes the cache, so `inputTokens` is
 * `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`; the two cache counts are
 * `cacheReadTokens` (and `cachedInputTokens`) and `cacheWriteTokens`. Anthropic reports no separate
 * reasoning count. `undefined` without both input and output counts.
 */
export function toUsage(usage: Json): Usage | undefined {
  const input = count(usage['input_tokens']);
  const output = count(usage['output_tokens']);
  if (input === undefined || output === undefined) return undefined;
  const read = count(usage['cache_read_input_tokens']);
  const written = count(usage['cache_creation_input_tokens']);
  return {
    inputTokens: input + (read ?? 0) + (written ?? 0),
    outputTokens: output,
    ...(read === undefined ? {} : { cacheReadTokens: read, cachedInputTokens: read }),
    ...(written === undefined ? {} : { cacheWriteTokens: written }),
  };
}

/** An in-stream (or 200-body) error event as the error to throw. */
export function streamError(error: Json): AnthropicError {
  const type = str(error['type']) || 'error';
  const message = str(error['message']);
  const overloaded = type === 'overloaded_error' || type === 'api_error';
  const code = overloaded ? 'PROVIDER_UNAVAILABLE' : type === 'rate_limit_error' ? 'RATE_LIMITED' : type === 'invalid_request_error' ? 'BAD_REQUEST' : type === 'authentication_error' ? 'AUTHENTICATION' : 'PROVIDER_UNAVAILABLE';
  return new AnthropicError(code, `The API sent an error event in the answer: ${type}${message === '' ? '' : ` ("${message}")`}. The partial answer was discarded.`, {
    status: 200,
    providerType: type,
    providerMessage: message,
    retryable: code === 'PROVIDER_UNAVAILABLE' || code === 'RATE_LIMITED',
  });
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function indexOf(event: Json): number {
  return typeof event['index'] === 'number' ? event['index'] : -1;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
