import { partsSummary, type AssistantPart, type FinishReason, type ModelResponse, type ModelStreamEvent, type ModelToolCall, type ProviderData, type Usage } from '@weir/core';
import { GoogleError } from './google-error.js';
import { isRecord } from './is-record.js';
import { setAtJsonPath } from './set-at-json-path.js';
import { toGeminiUsage } from './to-gemini-usage.js';

/** A run of text (or of thought) as the model sent it, with the signature that came on it. */
export interface GeminiTextPart {
  readonly kind: 'text';
  readonly thought: boolean;
  readonly text: string[];
  signature: string | undefined;
}

/** A function call, whole or still streaming its arguments (`partialArgs`, Vertex). */
export interface GeminiCallPart {
  readonly kind: 'call';
  /** Position among the answer's calls: the `index` of its `tool-call-delta` events. */
  readonly position: number;
  readonly name: string;
  readonly id: string | undefined;
  args: Record<string, unknown>;
  signature: string | undefined;
  open: boolean;
}

export type GeminiPart = GeminiTextPart | GeminiCallPart;

/** Where synthesised call ids come from: the answer's turn number and the ids already in use. */
export interface CallIdContext {
  readonly turn: number;
  readonly taken: ReadonlySet<string>;
}

/** The tag of this adapter's provider data (`LanguageModel.provider`). */
export const GOOGLE_PROVIDER = 'google';

const BLOCKS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE']);
const MALFORMED = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

/**
 * One Gemini answer being received: `GenerateContentResponse` chunks go in (streamed, or one whole
 * body), deltas come out, and once candidate 0 has a `finishReason`, the `ModelResponse`. Text runs
 * and thought runs are kept as parts, each with the `thoughtSignature` that came on it (a signature
 * on an empty text part joins the run it ends); function calls are parts of their own, with theirs.
 * The usage of the last chunk that has any wins (earlier ones are provisional).
 */
export class GeminiTurn {
  readonly #ids: CallIdContext;
  readonly #parts: GeminiPart[] = [];
  #calls = 0;
  #finish: string | undefined;
  #finishMessage: string | undefined;
  #blockedCategories: string[] = [];
  #usage: unknown;
  #responseId: string | undefined;
  #modelVersion: string | undefined;

  readonly #warnings: readonly string[];

  constructor(ids: CallIdContext, warnings: readonly string[] = []) {
    this.#ids = ids;
    this.#warnings = warnings;
  }

  get complete(): boolean {
    return this.#finish !== undefined;
  }

  /** The answer's parts, in the order the model sent them. */
  parts(): readonly GeminiPart[] {
    return this.#parts;
  }

  get responseId(): string | undefined {
    return this.#responseId;
  }

  get modelVersion(): string | undefined {
    return this.#modelVersion;
  }

  /**
   * Takes one `GenerateContentResponse`; returns the deltas to pass on. Throws
   * `GoogleError('PROMPT_BLOCKED')` for a prompt blocked before any candidate, naming the reason,
   * and `INVALID_RESPONSE` for a chunk that is not an object.
   */
  accept(chunk: unknown): ModelStreamEvent[] {
    if (!isRecord(chunk)) throw new GoogleError('INVALID_RESPONSE', 'The Gemini API sent a chunk that is not a JSON object.');
    if (typeof chunk['responseId'] === 'string') this.#responseId = chunk['responseId'];
    if (typeof chunk['modelVersion'] === 'string') this.#modelVersion = chunk['modelVersion'];
    if (isRecord(chunk['usageMetadata']) && Object.keys(chunk['usageMetadata']).some((key) => key.endsWith('Count'))) this.#usage = chunk['usageMetadata'];
    const candidates = Array.isArray(chunk['candidates']) ? chunk['candidates'].filter(isRecord) : [];
    const feedback = isRecord(chunk['promptFeedback']) ? chunk['promptFeedback'] : undefined;
    if (candidates.length === 0 && typeof feedback?.['blockReason'] === 'string') throw blocked(feedback);
    const events: ModelStreamEvent[] = [];
    const candidate = candidates.find((found) => (found['index'] ?? 0) === 0);
    if (candidate === undefined) return events;
    const content = isRecord(candidate['content']) ? candidate['content'] : {};
    for (const part of Array.isArray(content['parts']) ? content['parts'] : []) if (isRecord(part)) this.#acceptPart(part, events);
    if (typeof candidate['finishReason'] === 'string' && candidate['finishReason'] !== '') {
      this.#finish = candidate['finishReason'];
      // A finish closes a call still streaming its arguments.
      for (const part of this.#parts) if (part.kind === 'call' && part.open) this.#close(part, events);
    }
    if (typeof candidate['finishMessage'] === 'string') this.#finishMessage = candidate['finishMessage'];
    for (const rating of Array.isArray(candidate['safetyRatings']) ? candidate['safetyRatings'] : []) {
      if (isRecord(rating) && rating['blocked'] === true && typeof rating['category'] === 'string') this.#blockedCategories.push(rating['category']);
    }
    return events;
  }

  /**
   * The answer. `STOP` is `stop` or `tool_calls`; `MAX_TOKENS` is `length`; `SAFETY` and the other
   * blocks are `content_filter` with a `refusal` naming the reason and categories;
   * `MALFORMED_FUNCTION_CALL` (and `UNEXPECTED_TOOL_CALL`) is `tool_calls` with one call that cannot
   * run, so the loop answers it with an error the model reads and it tries again; anything else is
   * `error`. Tool calls of an answer that is not `stop`/`tool_calls` are dropped. Never throws.
   */
  response(): ModelResponse {
    const calls = this.#toolCalls();
    const reason = this.#finish ?? 'STOP';
    let finishReason: FinishReason = reason === 'STOP' ? (calls.length > 0 ? 'tool_calls' : 'stop') : reason === 'MAX_TOKENS' ? 'length' : BLOCKS.has(reason) ? 'content_filter' : 'error';
    let refusal: string | undefined;
    if (finishReason === 'content_filter') {
      const categories = this.#blockedCategories.length > 0 ? `: ${[...new Set(this.#blockedCategories)].join(', ')}` : '';
      refusal = `Gemini stopped the answer (finishReason ${reason}${categories}).${this.#finishMessage === undefined ? '' : ` ${this.#finishMessage}`}`;
    }
    const parts = this.#answerParts(calls);
    if (MALFORMED.has(reason)) {
      finishReason = 'tool_calls';
      parts.push({ type: 'tool-call', call: this.#malformedCall(reason, calls.length) });
    }
    const runnable = finishReason === 'stop' || finishReason === 'tool_calls';
    // The calls of an answer that is not `stop`/`tool_calls` never run: they leave the parts too.
    const kept = runnable ? parts : parts.filter((part) => part.type !== 'tool-call');
    const { text, reasoning, toolCalls } = partsSummary(kept);
    const usage: Usage | undefined = toGeminiUsage(this.#usage);
    return {
      text,
      toolCalls,
      finishReason,
      parts: kept,
      ...(usage !== undefined && { usage }),
      ...(reasoning !== undefined && { reasoning }),
      ...(refusal !== undefined && { refusal }),
      ...(this.#responseId !== undefined && { providerData: { [GOOGLE_PROVIDER]: { responseId: this.#responseId } } }),
      ...(this.#warnings.length > 0 && { warnings: this.#warnings }),
    };
  }

  /** The answer in order: text runs, thought runs (reasoning) and calls, each with its signature as provider data. */
  #answerParts(calls: readonly ModelToolCall[]): AssistantPart[] {
    let next = 0;
    return this.#parts.map((part): AssistantPart => {
      if (part.kind === 'call') return { type: 'tool-call', call: calls[next++]! };
      const providerData = signed(part.signature);
      return { type: part.thought ? 'reasoning' : 'text', text: part.text.join(''), ...(providerData !== undefined && { providerData }) };
    });
  }

  /** The call standing for a function call Gemini could not form: no tool takes these arguments, so the model reads why and tries again. */
  #malformedCall(reason: string, position: number): ModelToolCall {
    const message = this.#finishMessage ?? reason;
    // Gemini writes the call as Python: `print(default_api.read(path=a))`.
    const name = /default_api\.([A-Za-z_][\w-]*)\s*\(/.exec(message)?.[1] ?? 'malformed_function_call';
    const taken = new Set([...this.#ids.taken, ...this.#toolCalls().map((call) => call.id)]);
    return { id: uniqueId(`call_${this.#ids.turn}_${position}`, taken), name, arguments: `${reason}: ${message}. Send the call again as JSON arguments that match the tool's schema.` };
  }

  #toolCalls(): ModelToolCall[] {
    const taken = new Set(this.#ids.taken);
    for (const part of this.#parts) if (part.kind === 'call' && part.id !== undefined) taken.add(part.id);
    const calls: ModelToolCall[] = [];
    for (const part of this.#parts) {
      if (part.kind !== 'call') continue;
      const id = part.id ?? uniqueId(`call_${this.#ids.turn}_${part.position}`, taken);
      taken.add(id);
      // The call's own data: its signature, and whether Gemini named it (only then does the id go back).
      const own = { ...(part.signature !== undefined && { thoughtSignature: part.signature }), ...(part.id !== undefined && { id: part.id }) };
      calls.push({ id, name: part.name, arguments: JSON.stringify(part.args), ...(Object.keys(own).length > 0 && { providerData: { [GOOGLE_PROVIDER]: own } }) });
    }
    return calls;
  }

  #acceptPart(part: Record<string, unknown>, events: ModelStreamEvent[]): void {
    const signature = typeof part['thoughtSignature'] === 'string' && part['thoughtSignature'] !== '' ? part['thoughtSignature'] : undefined;
    const call = part['functionCall'];
    if (isRecord(call)) {
      this.#acceptCall(call, signature, events);
      return;
    }
    if (typeof part['text'] === 'string') {
      const thought = part['thought'] === true;
      const last = this.#parts.at(-1);
      // A run goes on until a signature closes it; an empty text part carrying one closes the run it follows.
      const run = last?.kind === 'text' && last.thought === thought && last.signature === undefined ? last : undefined;
      if (part['text'] === '' && signature !== undefined && last?.kind === 'text' && last.signature === undefined) {
        last.signature = signature;
        return;
      }
      const target = run ?? this.#push({ kind: 'text', thought, text: [], signature: undefined });
      if (part['text'] !== '') {
        target.text.push(part['text']);
        events.push({ type: thought ? 'reasoning-delta' : 'text-delta', text: part['text'] });
      }
      if (signature !== undefined) target.signature = signature;
      return;
    }
    // executableCode, codeExecutionResult, inlineData from a server tool: nothing weir runs or shows.
  }

  #acceptCall(call: Record<string, unknown>, signature: string | undefined, events: ModelStreamEvent[]): void {
    const open = this.#parts.findLast((part): part is GeminiCallPart => part.kind === 'call' && part.open);
    const name = typeof call['name'] === 'string' && call['name'] !== '' ? call['name'] : undefined;
    if (open !== undefined && name === undefined) {
      // Vertex streams arguments as `partialArgs`; an empty `functionCall` (no willContinue) ends the call.
      for (const piece of Array.isArray(call['partialArgs']) ? call['partialArgs'] : []) if (isRecord(piece)) setAtJsonPath(open.args, piece);
      if (signature !== undefined && open.signature === undefined) open.signature = signature;
      if (call['willContinue'] !== true) this.#close(open, events);
      return;
    }
    if (open !== undefined) this.#close(open, events);
    if (name === undefined) return;
    const streaming = call['willContinue'] === true;
    const part: GeminiCallPart = {
      kind: 'call',
      position: this.#calls++,
      name,
      id: typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : undefined,
      args: isRecord(call['args']) ? { ...call['args'] } : {},
      signature,
      open: streaming,
    };
    this.#push(part);
    events.push({ type: 'tool-call-delta', index: part.position, ...(part.id !== undefined && { id: part.id }), name, argumentsDelta: streaming ? '' : JSON.stringify(part.args) });
  }

  #close(part: GeminiCallPart, events: ModelStreamEvent[]): void {
    part.open = false;
    events.push({ type: 'tool-call-delta', index: part.position, argumentsDelta: JSON.stringify(part.args) });
  }

  #push<T extends GeminiPart>(part: T): T {
    this.#parts.push(part);
    return part;
  }
}

function signed(signature: string | undefined): ProviderData | undefined {
  return signature === undefined ? undefined : { [GOOGLE_PROVIDER]: { thoughtSignature: signature } };
}

function blocked(feedback: Record<string, unknown>): GoogleError {
  const reason = String(feedback['blockReason']);
  const detail = typeof feedback['blockReasonMessage'] === 'string' ? ` ${feedback['blockReasonMessage']}` : '';
  return new GoogleError('PROMPT_BLOCKED', `Gemini blocked the prompt before answering (blockReason ${reason}).${detail} Rephrase the request or change the safety settings; sending it again unchanged is blocked again.`, { reason });
}

function uniqueId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${base}_${suffix}`)) return `${base}_${suffix}`;
}
