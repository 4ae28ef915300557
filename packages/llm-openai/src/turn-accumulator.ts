import type { ModelResponse, ModelStreamEvent, Usage } from '@weir/core';
import { isRecord } from './is-record.js';
import { OpenAIError } from './openai-error.js';
import { toFinishReason } from './to-finish-reason.js';
import { ThinkTagSplitter, type ContentPiece } from './think-tag-splitter.js';
import { toUsage } from './to-usage.js';
import { ToolCallAssembler, type CallIdContext } from './tool-call-assembler.js';
import type { TurnReader } from './turn-reader.js';

/** How an answer's content is read. */
export interface TurnOptions {
  /** Move `<think>...</think>` in the content into `reasoning`. Default false. */
  readonly thinkTags?: boolean;
}

/**
 * One assistant answer being received: streamed chunks (or one whole completion) go in, the events
 * to pass on come out, and once the answer is complete, the `ModelResponse`.
 *
 * Only choice 0 makes the answer (weir asks for one), but every choice the server opens must finish:
 * an answer is complete when each choice has a `finish_reason`, or when `[DONE]` arrives after at
 * least one did, or after choice 0 sent text or tool calls that are whole (some providers, Snowflake
 * Cortex among them, send no `finish_reason` at all). Anything else is a failed attempt, never a
 * short answer.
 */
export class TurnAccumulator implements TurnReader {
  /** Chat Completions ends with `[DONE]` (or the end of the body), never with an event of its own. */
  readonly ended = false;
  /** Chat Completions sends failures as `{ error }` chunks, read by the transport. */
  readonly failure = undefined;
  readonly #ids: CallIdContext;
  readonly #text: string[] = [];
  readonly #reasoning: string[] = [];
  readonly #refusal: string[] = [];
  readonly #tools = new ToolCallAssembler();
  /** Every choice index seen, with its wire finish reason once it came. */
  readonly #finish = new Map<number, string | undefined>();
  readonly #thinkTags: ThinkTagSplitter | undefined;
  #usage: Usage | undefined;
  #done = false;

  constructor(ids: CallIdContext, options: TurnOptions = {}) {
    this.#ids = ids;
    this.#thinkTags = options.thinkTags === true ? new ThinkTagSplitter() : undefined;
  }

  /** True once the answer may be returned (see the class comment). */
  get complete(): boolean {
    const reasons = [...this.#finish.values()];
    if (reasons.length === 0) return false;
    if (reasons.every((reason) => reason !== undefined)) return true;
    if (!this.#done) return false;
    if (reasons.some((reason) => reason !== undefined)) return true;
    // [DONE] and no finish reason anywhere: an answer if it said something whole.
    return this.#tools.size > 0 ? this.#tools.whole : this.#text.some((text) => text.trim() !== '');
  }

  /** `[DONE]` arrived. */
  markDone(): void {
    this.#done = true;
  }

  /**
   * Takes one parsed `chat.completion.chunk`; returns the deltas to pass on. Chunks with an empty
   * `choices` array (Azure's prompt filter results, the usage chunk) are fine. Throws
   * `OpenAIError('INVALID_RESPONSE')` for a chunk that is not an object or breaks the tool-call protocol.
   */
  acceptChunk(chunk: unknown): ModelStreamEvent[] {
    if (!isRecord(chunk)) throw new OpenAIError('INVALID_RESPONSE', 'The stream sent a data event that is not a JSON object.');
    this.#acceptUsage(chunk);
    const events: ModelStreamEvent[] = [];
    for (const choice of Array.isArray(chunk['choices']) ? chunk['choices'] : []) {
      if (!isRecord(choice)) continue;
      const index = this.#track(choice);
      if (index !== 0 || !isRecord(choice['delta'])) continue;
      const delta = choice['delta'];
      this.#acceptText(delta, events);
      for (const call of Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : []) {
        const event = this.#tools.accept(call);
        if (event !== undefined) events.push(event);
      }
    }
    return events;
  }

  /**
   * Takes a whole `chat.completion` (a non-streamed answer); returns its content as deltas. A parsed
   * body is complete by construction, so a choice without `finish_reason` counts as finished.
   * Throws `OpenAIError('INVALID_RESPONSE')` when there is no choice to read.
   */
  acceptCompletion(body: unknown): ModelStreamEvent[] {
    const choices = isRecord(body) && Array.isArray(body['choices']) ? body['choices'].filter(isRecord) : [];
    if (choices.length === 0) throw new OpenAIError('INVALID_RESPONSE', 'The JSON answer has no choices: it is not a Chat Completions response.');
    this.#acceptUsage(body as Record<string, unknown>);
    const events: ModelStreamEvent[] = [];
    for (const choice of choices) {
      const index = this.#track(choice);
      if (this.#finish.get(index) === undefined) this.#finish.set(index, 'stop');
      if (index !== 0 || !isRecord(choice['message'])) continue;
      const message = choice['message'];
      this.#acceptText(message, events);
      const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
      calls.forEach((call, position) => {
        // Whole calls, one per entry: their positions are their indexes, whatever they say.
        const event = this.#tools.accept(isRecord(call) ? { ...call, index: position } : call);
        if (event !== undefined) events.push(event);
      });
    }
    this.#done = true;
    return events;
  }

  /** The content is over: the deltas held back while a `<think>` tag might have been starting. */
  flush(): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    for (const piece of this.#thinkTags?.flush() ?? []) this.#pushPiece(piece.kind, piece.text, events);
    return events;
  }

  /**
   * The answer. Tool calls of an answer that ended by `length`, `content_filter` or `error` are
   * dropped (the finish reason stays): their arguments may be cut off, and they must never run.
   * Call only when `complete`. Never throws.
   */
  response(): ModelResponse {
    const wireReason = this.#finish.get(0) ?? [...this.#finish.values()].find((reason) => reason !== undefined) ?? 'stop';
    const calls = this.#tools.finish(this.#ids);
    const finishReason = toFinishReason(wireReason, calls.length > 0);
    const runnable = finishReason === 'stop' || finishReason === 'tool_calls';
    const reasoning = this.#reasoning.join('');
    const refusal = this.#refusal.join('');
    return {
      text: this.#text.join(''),
      toolCalls: runnable ? calls : [],
      finishReason,
      ...(this.#usage !== undefined && { usage: this.#usage }),
      ...(reasoning !== '' && { reasoning }),
      ...(refusal !== '' && { refusal }),
    };
  }

  /** Records the choice and its finish reason; returns its index. */
  #track(choice: Record<string, unknown>): number {
    const index = typeof choice['index'] === 'number' ? choice['index'] : 0;
    const reason = choice['finish_reason'];
    if (typeof reason === 'string' && reason !== '') this.#finish.set(index, reason);
    else if (!this.#finish.has(index)) this.#finish.set(index, undefined);
    return index;
  }

  #acceptUsage(chunk: Record<string, unknown>): void {
    // Servers that report usage on several chunks send running totals: the last one wins. Older Groq
    // answers carry it only in `x_groq.usage`.
    const groq = chunk['x_groq'];
    const usage = toUsage(chunk['usage']) ?? (isRecord(groq) ? toUsage(groq['usage']) : undefined);
    if (usage !== undefined) this.#usage = usage;
  }

  /**
   * Visible text and reasoning, in the order they came, and the refusal. Reasoning is read from
   * `reasoning_content` (DeepSeek), `reasoning` (OpenRouter, Groq, newer vLLM), else the text of
   * `reasoning_details` (Snowflake Cortex, OpenRouter); Mistral sends it as `thinking` content parts.
   */
  #acceptText(source: Record<string, unknown>, events: ModelStreamEvent[]): void {
    const reasoning = plainText(source['reasoning_content']) || plainText(source['reasoning']) || detailsText(source['reasoning_details']);
    if (reasoning !== '') this.#pushPiece('reasoning', reasoning, events);
    for (const part of contentParts(source['content'])) {
      if (part.kind === 'reasoning' || this.#thinkTags === undefined) this.#pushPiece(part.kind, part.text, events);
      else for (const piece of this.#thinkTags.push(part.text)) this.#pushPiece(piece.kind, piece.text, events);
    }
    const refusal = plainText(source['refusal']);
    if (refusal !== '') this.#refusal.push(refusal);
  }

  #pushPiece(kind: ContentPiece['kind'], text: string, events: ModelStreamEvent[]): void {
    if (text === '') return;
    if (kind === 'text') {
      this.#text.push(text);
      events.push({ type: 'text-delta', text });
    } else {
      this.#reasoning.push(text);
      events.push({ type: 'reasoning-delta', text });
    }
  }
}

/** A string, or the text parts of an array (`[{ type: 'text', text }]`); `''` otherwise. */
function plainText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** `content` as pieces: a string, `text` parts, and Mistral's `{ type: 'thinking', thinking: [{ type: 'text', text }] }` parts. */
function contentParts(value: unknown): ContentPiece[] {
  if (typeof value === 'string') return [{ kind: 'text', text: value }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((part): ContentPiece[] => {
    if (!isRecord(part)) return [];
    if (part['type'] === 'thinking') return [{ kind: 'reasoning', text: plainText(part['thinking']) }];
    return typeof part['text'] === 'string' ? [{ kind: 'text', text: part['text'] }] : [];
  });
}

/** The readable text of OpenRouter-style `reasoning_details` (`reasoning.text`, `reasoning.summary`); encrypted entries have none. */
function detailsText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value
    .map((detail) => {
      if (!isRecord(detail)) return '';
      if (detail['type'] === 'reasoning.text' && typeof detail['text'] === 'string') return detail['text'];
      if (detail['type'] === 'reasoning.summary' && typeof detail['summary'] === 'string') return detail['summary'];
      return '';
    })
    .join('');
}
