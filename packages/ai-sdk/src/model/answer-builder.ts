import { partsSummary, type AssistantPart, type ModelResponse, type ModelToolCall, type ProviderData } from '@weir/core';
import { toFinishReason } from './to-finish-reason.js';
import { toWeirUsage } from './to-weir-usage.js';

/**
 * Collects one answer's parts in the order the model produced them, from `doGenerate`'s content or
 * `doStream`'s parts, and makes the weir response. Each part's SDK `providerMetadata` is kept whole
 * under this model's `tag` (merged over a streamed part's start, deltas and end), which is exactly
 * what the SDK takes back as the part's `providerOptions` on the next call.
 */
export class AnswerBuilder {
  readonly #tag: string;
  readonly #parts: { type: 'text' | 'reasoning'; text: string; meta: Record<string, Record<string, unknown>> | undefined }[] = [];
  readonly #order: (number | ModelToolCall)[] = [];
  readonly #open = new Map<string, number>();

  constructor(tag: string) {
    this.#tag = tag;
  }

  /** Starts a text or reasoning part (a stream's `*-start`, or a whole `doGenerate` part). Returns its index. */
  start(type: 'text' | 'reasoning', id: string | undefined, meta: unknown): number {
    const index = this.#parts.push({ type, text: '', meta: undefined }) - 1;
    this.#order.push(index);
    this.#merge(index, meta);
    if (id !== undefined) this.#open.set(`${type}:${id}`, index);
    return index;
  }

  /** Adds to an open part; a delta for an id never started starts one (a lenient provider). */
  delta(type: 'text' | 'reasoning', id: string, text: string, meta: unknown): void {
    const index = this.#open.get(`${type}:${id}`) ?? this.start(type, id, undefined);
    this.#parts[index]!.text += text;
    this.#merge(index, meta);
  }

  end(type: 'text' | 'reasoning', id: string, meta: unknown): void {
    const index = this.#open.get(`${type}:${id}`);
    if (index === undefined) return;
    this.#merge(index, meta);
    this.#open.delete(`${type}:${id}`);
  }

  whole(type: 'text' | 'reasoning', text: string, meta: unknown): void {
    const index = this.start(type, undefined, meta);
    this.#parts[index]!.text = text;
  }

  /** A complete client tool call (provider-executed ones are the provider's business and not recorded). */
  toolCall(part: { toolCallId: string; toolName: string; input: unknown; providerExecuted?: boolean; providerMetadata?: unknown }): void {
    if (part.providerExecuted === true) return;
    const data = this.#data(part.providerMetadata);
    const args = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
    this.#order.push(Object.freeze({ id: part.toolCallId, name: part.toolName, arguments: args, ...(data === undefined ? {} : { providerData: data }) }));
  }

  response(finishReason: unknown, usage: unknown, warnings: readonly string[]): ModelResponse {
    const parts: AssistantPart[] = this.#order.map((entry) => {
      if (typeof entry !== 'number') return Object.freeze({ type: 'tool-call', call: entry });
      const part = this.#parts[entry]!;
      const data = this.#data(part.meta);
      return Object.freeze({ type: part.type, text: part.text, ...(data === undefined ? {} : { providerData: data }) });
    });
    // An empty text part says nothing; an empty reasoning part may carry a signature or redacted data.
    const kept = parts.filter((part) => part.type !== 'text' || part.text !== '' || part.providerData !== undefined);
    const { text, reasoning, toolCalls } = partsSummary(kept);
    const weirUsage = toWeirUsage(usage);
    return {
      text,
      toolCalls,
      finishReason: toFinishReason(finishReason, toolCalls.length > 0),
      parts: Object.freeze(kept),
      ...(reasoning === undefined ? {} : { reasoning }),
      ...(weirUsage === undefined ? {} : { usage: weirUsage }),
      ...(warnings.length === 0 ? {} : { warnings }),
    };
  }

  #merge(index: number, meta: unknown): void {
    if (typeof meta !== 'object' || meta === null) return;
    const part = this.#parts[index]!;
    const merged: Record<string, Record<string, unknown>> = { ...part.meta };
    for (const [key, value] of Object.entries(meta as Record<string, Record<string, unknown>>)) merged[key] = { ...merged[key], ...value };
    part.meta = merged;
  }

  #data(meta: unknown): ProviderData | undefined {
    if (typeof meta !== 'object' || meta === null || Object.keys(meta).length === 0) return undefined;
    return { [this.#tag]: meta as Record<string, unknown> };
  }
}
