import { partsSummary, type AssistantPart, type FinishReason, type ModelResponse, type ModelStreamEvent, type ModelToolCall, type Usage } from '@weir/core';
import { isRecord } from '../is-record.js';
import { OpenAIError } from '../openai-error.js';
import { synthesizeCallId } from '../synthesize-call-id.js';
import type { CallIdContext } from '../tool-call-assembler.js';
import type { TurnReader } from '../turn-reader.js';
import { toResponsesUsage } from './responses-usage.js';

/** The tag of this API's provider data (`LanguageModel.provider`). */
export const RESPONSES_PROVIDER = 'openai-responses';

/** One output item of the answer, by its `output_index`, as it is being received. */
export interface OutputSlot {
  readonly type: string;
  /** The item as the API sent it: `output_item.added`'s, replaced by `output_item.done`'s (final: the encrypted content of a reasoning item may change in between). */
  item: Record<string, unknown>;
  readonly text: string[];
  readonly reasoning: string[];
  readonly refusal: string[];
  readonly args: string[];
  /** Position among the answer's function calls (the `index` of its `tool-call-delta` events). */
  readonly call: number | undefined;
  done: boolean;
}

/**
 * One Responses API answer being received: streamed events (or one whole `response` object) go in,
 * the deltas to pass on come out, and once `response.completed` or `response.incomplete` came, the
 * `ModelResponse`. Items are correlated by `output_index` (some captures change `item_id` on every
 * event). Text, reasoning and arguments come from the deltas; an item whose deltas never came (a
 * whole item in `output_item.done`, or a non-streamed answer) gives its content from the item.
 * `error` events and `response.failed` set `failure`; the transport throws it.
 */
export class ResponsesTurn implements TurnReader {
  readonly #ids: CallIdContext;
  readonly #slots = new Map<number, OutputSlot>();
  #calls = 0;
  #status: string | undefined;
  #incompleteReason: string | undefined;
  #usage: unknown;
  #responseId: string | undefined;
  #failure: unknown;
  #ended = false;

  readonly #warnings: readonly string[];

  constructor(ids: CallIdContext, warnings: readonly string[] = []) {
    this.#ids = ids;
    this.#warnings = warnings;
  }

  get complete(): boolean {
    return this.#status !== undefined && this.#failure === undefined;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get failure(): unknown {
    return this.#failure;
  }

  /** The id of the response (`resp_...`), once known. */
  get responseId(): string | undefined {
    return this.#responseId;
  }

  /** The output items in order, as received (the final form of each that finished). */
  items(): OutputSlot[] {
    return [...this.#slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
  }

  /** The Responses API sends no `[DONE]`; a proxy that adds one changes nothing. */
  markDone(): void {}

  acceptChunk(chunk: unknown, event?: string): ModelStreamEvent[] {
    if (!isRecord(chunk)) throw new OpenAIError('INVALID_RESPONSE', 'The stream sent a data event that is not a JSON object.');
    const type = typeof chunk['type'] === 'string' ? chunk['type'] : (event ?? '');
    const index = typeof chunk['output_index'] === 'number' ? chunk['output_index'] : 0;
    const delta = typeof chunk['delta'] === 'string' ? chunk['delta'] : '';
    const events: ModelStreamEvent[] = [];
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.#acceptResponseHead(chunk['response']);
        break;
      case 'response.output_item.added':
        if (isRecord(chunk['item'])) this.#open(index, chunk['item'], events);
        break;
      case 'response.output_item.done':
        if (isRecord(chunk['item'])) this.#finishItem(index, chunk['item'], events);
        break;
      case 'response.output_text.delta':
        this.#push(this.#slot(index, 'message', events).text, delta, 'text-delta', events);
        break;
      case 'response.refusal.delta':
        if (delta !== '') this.#slot(index, 'message', events).refusal.push(delta);
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.#push(this.#slot(index, 'reasoning', events).reasoning, delta, 'reasoning-delta', events);
        break;
      case 'response.function_call_arguments.delta': {
        const slot = this.#slot(index, 'function_call', events);
        if (delta !== '' && slot.call !== undefined) {
          slot.args.push(delta);
          events.push({ type: 'tool-call-delta', index: slot.call, argumentsDelta: delta });
        }
        break;
      }
      case 'response.function_call_arguments.done': {
        const slot = this.#slot(index, 'function_call', events);
        if (slot.args.length === 0 && typeof chunk['arguments'] === 'string') this.#acceptArguments(slot, chunk['arguments'], events);
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        this.#acceptFinal(chunk['response'], events);
        this.#ended = true;
        break;
      case 'response.failed': {
        const response = isRecord(chunk['response']) ? chunk['response'] : {};
        this.#failure = { error: isRecord(response['error']) ? response['error'] : { message: 'The response failed (response.failed, no error given).' } };
        this.#ended = true;
        break;
      }
      case 'error':
        this.#failure = chunk['error'] !== undefined && chunk['error'] !== null ? chunk : { error: chunk };
        this.#ended = true;
        break;
      default:
        // Server tools' progress, content_part and annotation events, keep-alives: nothing to pass on.
        break;
    }
    return events;
  }

  /**
   * Takes a whole `response` object (a server that ignored `stream: true`). Throws
   * `OpenAIError('INVALID_RESPONSE')` when the body is not one.
   */
  acceptCompletion(body: unknown): ModelStreamEvent[] {
    if (!isRecord(body) || !Array.isArray(body['output']) || typeof body['status'] !== 'string') {
      throw new OpenAIError('INVALID_RESPONSE', 'The JSON answer has no output and status: it is not a Responses API response.');
    }
    const events: ModelStreamEvent[] = [];
    if (body['status'] === 'failed') {
      this.#failure = { error: isRecord(body['error']) ? body['error'] : { message: 'The response failed (no error given).' } };
    } else {
      this.#acceptFinal(body, events);
    }
    this.#ended = true;
    return events;
  }

  flush(): ModelStreamEvent[] {
    return [];
  }

  /**
   * The answer. `completed` is `stop` or `tool_calls`; `incomplete` is `length` for
   * `max_output_tokens`, `content_filter` for `content_filter`, `error` for any other reason; a
   * status that is no end (`queued`, `in_progress`: a background response) is `error`. Tool calls of
   * an answer that is not `stop`/`tool_calls` are dropped. Never throws.
   */
  response(): ModelResponse {
    const parts = this.#parts();
    const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [part.call] : []));
    const finishReason = this.#finishReason(calls.length > 0);
    const runnable = finishReason === 'stop' || finishReason === 'tool_calls';
    // The calls of an answer that is not `stop`/`tool_calls` never run: they leave the parts too.
    const kept = runnable ? parts : parts.filter((part) => part.type !== 'tool-call');
    const { text, reasoning, toolCalls } = partsSummary(kept);
    const refusal = this.items().map((slot) => slot.refusal.join('')).join('');
    const usage: Usage | undefined = toResponsesUsage(this.#usage);
    return {
      text,
      toolCalls,
      finishReason,
      parts: kept,
      ...(usage !== undefined && { usage }),
      ...(reasoning !== undefined && { reasoning }),
      ...(refusal !== '' && { refusal }),
      ...(this.#responseId !== undefined && { providerData: { [RESPONSES_PROVIDER]: { responseId: this.#responseId } } }),
      ...(this.#warnings.length > 0 && { warnings: this.#warnings }),
    };
  }

  /**
   * The answer in order: a reasoning item is a reasoning part holding the item as the API sent it
   * (its `encrypted_content` goes back byte for byte), a message is a text part with its item id, a
   * function call is a tool-call part whose call holds its item id.
   */
  #parts(): AssistantPart[] {
    const parts: AssistantPart[] = [];
    const calls = this.#toolCalls();
    for (const slot of this.items()) {
      const id = typeof slot.item['id'] === 'string' ? slot.item['id'] : undefined;
      if (slot.type === 'reasoning') {
        parts.push({ type: 'reasoning', text: slot.reasoning.join(''), providerData: { [RESPONSES_PROVIDER]: { item: slot.item } } });
      } else if (slot.type === 'message' && slot.text.length > 0) {
        parts.push({ type: 'text', text: slot.text.join(''), ...(id !== undefined && { providerData: { [RESPONSES_PROVIDER]: { id } } }) });
      } else if (slot.call !== undefined) {
        parts.push({ type: 'tool-call', call: calls[slot.call]! });
      }
    }
    return parts;
  }

  #finishReason(hasCalls: boolean): FinishReason {
    if (this.#status === 'completed') return hasCalls ? 'tool_calls' : 'stop';
    if (this.#status === 'incomplete') {
      if (this.#incompleteReason === 'max_output_tokens') return 'length';
      if (this.#incompleteReason === 'content_filter') return 'content_filter';
    }
    return 'error';
  }

  #toolCalls(): ModelToolCall[] {
    const calls = this.items().filter((slot) => slot.call !== undefined);
    const taken = new Set(this.#ids.taken);
    for (const slot of calls) if (typeof slot.item['call_id'] === 'string' && slot.item['call_id'] !== '') taken.add(slot.item['call_id']);
    return calls.map((slot) => {
      let id = typeof slot.item['call_id'] === 'string' ? slot.item['call_id'] : '';
      if (id === '') {
        id = synthesizeCallId(this.#ids.turn, slot.call!, taken);
        taken.add(id);
      }
      const itemId = typeof slot.item['id'] === 'string' ? slot.item['id'] : undefined;
      return {
        id,
        name: typeof slot.item['name'] === 'string' ? slot.item['name'] : '',
        arguments: slot.args.join(''),
        ...(itemId !== undefined && { providerData: { [RESPONSES_PROVIDER]: { id: itemId } } }),
      };
    });
  }

  #acceptResponseHead(response: unknown): void {
    if (isRecord(response) && typeof response['id'] === 'string') this.#responseId = response['id'];
  }

  /** The terminal response (or a whole one): status, why it is incomplete, usage, and its output when no item event came. */
  #acceptFinal(response: unknown, events: ModelStreamEvent[]): void {
    if (!isRecord(response)) throw new OpenAIError('INVALID_RESPONSE', 'The stream ended its response without the response object.');
    this.#acceptResponseHead(response);
    // The terminal output only stands in for item events that never came: where they did, the
    // deltas are the answer (a capture of the phase feature shows the two disagree).
    if (this.#slots.size === 0 && Array.isArray(response['output'])) {
      response['output'].forEach((item, index) => {
        if (isRecord(item)) this.#finishItem(index, item, events);
      });
    }
    this.#status = typeof response['status'] === 'string' ? response['status'] : 'completed';
    const details = response['incomplete_details'];
    this.#incompleteReason = isRecord(details) && typeof details['reason'] === 'string' ? details['reason'] : undefined;
    this.#usage = response['usage'];
  }

  #open(index: number, item: Record<string, unknown>, events: ModelStreamEvent[]): OutputSlot {
    const existing = this.#slots.get(index);
    if (existing !== undefined) return existing;
    const type = typeof item['type'] === 'string' ? item['type'] : 'unknown';
    const call = type === 'function_call' ? this.#calls++ : undefined;
    const slot: OutputSlot = { type, item, text: [], reasoning: [], refusal: [], args: [], call, done: false };
    this.#slots.set(index, slot);
    if (call !== undefined) {
      const id = typeof item['call_id'] === 'string' && item['call_id'] !== '' ? item['call_id'] : undefined;
      const name = typeof item['name'] === 'string' && item['name'] !== '' ? item['name'] : undefined;
      events.push({ type: 'tool-call-delta', index: call, ...(id !== undefined && { id }), ...(name !== undefined && { name }), argumentsDelta: '' });
    }
    return slot;
  }

  /** The slot at `index`, opened as a `type` item when its `output_item.added` never came. */
  #slot(index: number, type: string, events: ModelStreamEvent[]): OutputSlot {
    return this.#slots.get(index) ?? this.#open(index, { type }, events);
  }

  /** The final form of an item; content whose deltas never came is taken from it. */
  #finishItem(index: number, item: Record<string, unknown>, events: ModelStreamEvent[]): void {
    const slot = this.#open(index, item, events);
    slot.item = item;
    slot.done = true;
    if (slot.type === 'message' && slot.text.length === 0 && slot.refusal.length === 0) {
      for (const part of Array.isArray(item['content']) ? item['content'] : []) {
        if (!isRecord(part)) continue;
        if (part['type'] === 'output_text' && typeof part['text'] === 'string') this.#push(slot.text, part['text'], 'text-delta', events);
        if (part['type'] === 'refusal' && typeof part['refusal'] === 'string' && part['refusal'] !== '') slot.refusal.push(part['refusal']);
      }
    } else if (slot.type === 'reasoning' && slot.reasoning.length === 0) {
      for (const part of [...list(item['summary']), ...list(item['content'])]) {
        if (isRecord(part) && typeof part['text'] === 'string') this.#push(slot.reasoning, part['text'], 'reasoning-delta', events);
      }
    } else if (slot.type === 'function_call' && slot.args.length === 0 && typeof item['arguments'] === 'string') {
      this.#acceptArguments(slot, item['arguments'], events);
    }
  }

  #acceptArguments(slot: OutputSlot, args: string, events: ModelStreamEvent[]): void {
    if (args === '' || slot.call === undefined) return;
    slot.args.push(args);
    events.push({ type: 'tool-call-delta', index: slot.call, argumentsDelta: args });
  }

  #push(into: string[], text: string, type: 'text-delta' | 'reasoning-delta', events: ModelStreamEvent[]): void {
    if (text === '') return;
    into.push(text);
    events.push({ type, text });
  }
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
