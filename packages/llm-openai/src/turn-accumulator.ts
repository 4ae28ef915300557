import type { ModelResponse, ModelStreamEvent, Usage } from '@weir/core';
import { isRecord } from './is-record.js';
import { OpenAIError } from './openai-error.js';
import { toFinishReason } from './to-finish-reason.js';
import { toUsage } from './to-usage.js';
import { ToolCallAssembler, type CallIdContext } from './tool-call-assembler.js';

/**
 * One assistant answer being received: streamed chunks (or one whole completion) go in, the events
 * to pass on come out, and once the answer is complete, the `ModelResponse`.
 *
 * Only choice 0 makes the answer (weir asks for one), but every choice the server opens must finish:
 * an answer is complete when each choice has a `finish_reason`, or when `[DONE]` arrives after at
 * least one did. Anything else is a failed attempt, never a short answer.
 */
export class TurnAccumulator {
  readonly #ids: CallIdContext;
  readonly #text: string[] = [];
  readonly #reasoning: string[] = [];
  readonly #refusal: string[] = [];
  readonly #tools = new ToolCallAssembler();
  /** Every choice index seen, with its wire finish reason once it came. */
  readonly #finish = new Map<number, string | undefined>();
  #usage: Usage | undefined;
  #done = false;

  constructor(ids: CallIdContext) {
    this.#ids = ids;
  }

  /** True once the answer may be returned (see the class comment). */
  get complete(): boolean {
    const reasons = [...this.#finish.values()];
    if (reasons.length === 0) return false;
    return reasons.every((reason) => reason !== undefined) || (this.#done && reasons.some((reason) => reason !== undefined));
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
    this.#acceptUsage(chunk['usage']);
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
    this.#acceptUsage((body as Record<string, unknown>)['usage']);
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

  #acceptUsage(wire: unknown): void {
    // Servers that report usage on several chunks send running totals: the last one wins.
    const usage = toUsage(wire);
    if (usage !== undefined) this.#usage = usage;
  }

  /** Visible text, reasoning (`reasoning_content`, or `reasoning` on OpenRouter and newer vLLM) and refusal. */
  #acceptText(source: Record<string, unknown>, events: ModelStreamEvent[]): void {
    const text = contentText(source['content']);
    if (text !== '') {
      this.#text.push(text);
      events.push({ type: 'text-delta', text });
    }
    const reasoning = contentText(source['reasoning_content']) || contentText(source['reasoning']);
    if (reasoning !== '') {
      this.#reasoning.push(reasoning);
      events.push({ type: 'reasoning-delta', text: reasoning });
    }
    const refusal = contentText(source['refusal']);
    if (refusal !== '') this.#refusal.push(refusal);
  }
}

/** A string, or the text parts of a content array (`[{ type: 'text', text }]`); `''` otherwise. */
function contentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}
