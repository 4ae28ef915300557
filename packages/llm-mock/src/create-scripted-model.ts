import { partsSummary, type AssistantPart, type FinishReason, type LanguageModel, type ModelMetadata, type ModelRequest, type ModelResponse, type ModelStreamEvent, type ModelToolCall, type ProviderData, type Usage } from '@weir/core';
import { streamResponse } from './stream-response.js';

/** A tool call in a script: `id` defaults to `call_<call>_<n>`, `arguments` to `{}`. */
export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments?: ModelToolCall['arguments'];
}

/**
 * One scripted answer. Everything may be left out: `text` defaults to `''`, `toolCalls` to `[]`,
 * and `finishReason` to `'tool_calls'` when there are tool calls, `'stop'` otherwise.
 */
export interface ScriptedResponse {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly finishReason?: FinishReason;
  readonly usage?: Usage;
  readonly reasoning?: string;
  readonly refusal?: string;
  /**
   * The answer as ordered parts; `text`, `reasoning` and `toolCalls` are then derived from them
   * (as a real adapter derives them) unless given too.
   */
  readonly parts?: readonly AssistantPart[];
  readonly providerData?: ProviderData;
  /** Options the model "could not honour": passed on as the response's `warnings`. */
  readonly warnings?: readonly string[];
}

/**
 * A step of the script: an answer, or a function of the live request (and the 1-based call
 * number) that returns one. A function that throws or rejects makes that model call fail.
 */
export type ScriptedStep = ScriptedResponse | ((request: ModelRequest, call: number) => ScriptedResponse | Promise<ScriptedResponse>);

/** Options of `createScriptedModel`. */
export interface ScriptedModelOptions {
  /** Default `'mock:scripted'`. */
  readonly id?: string;
  /** Also offer `stream()`, replaying each answer as deltas. Default false: only `complete()`. */
  readonly stream?: boolean;
  /** The model's `provider` tag. */
  readonly provider?: string;
  /** The model's `metadata` (context window, prices). */
  readonly metadata?: ModelMetadata;
}

/** A `LanguageModel` that answers from a script and reports how it was used. */
export interface ScriptedModel extends LanguageModel {
  /**
   * Every request received, in order, calls beyond the script included. Each holds a copy of the
   * history as it was at that call (the agent keeps appending to its own array).
   */
  readonly requests: readonly ModelRequest[];
  /** Steps not used yet. */
  readonly remaining: number;
  /** Throws when a step was left unused: a test whose model was not asked what it expected fails. */
  assertAllUsed(): void;
}

/**
 * A strict model for tests: answers with the steps, in order, and nothing else. A call beyond the
 * script rejects with an error naming the call and the last message; an aborted signal rejects
 * with its reason without using a step.
 */
export function createScriptedModel(steps: readonly ScriptedStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  const id = options.id ?? 'mock:scripted';
  const script = [...steps];
  const requests: ModelRequest[] = [];
  let used = 0;

  const respond = async (request: ModelRequest): Promise<ModelResponse> => {
    const copy = { messages: Object.freeze([...request.messages]), tools: request.tools, signal: request.signal };
    requests.push(Object.freeze(request.options === undefined ? copy : { ...copy, options: request.options }));
    const call = requests.length;
    request.signal?.throwIfAborted();
    if (used >= script.length) {
      throw new Error(`Scripted model ${id}: call ${call} is beyond the script (${script.length} step${script.length === 1 ? '' : 's'}). ${describeLast(request)}`);
    }
    const step = script[used]!;
    used += 1;
    const scripted = typeof step === 'function' ? await step(request, call) : step;
    return toResponse(scripted, call);
  };

  const model: ScriptedModel = {
    id,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    get requests() {
      return requests;
    },
    get remaining() {
      return script.length - used;
    },
    complete: respond,
    assertAllUsed() {
      if (used < script.length) {
        throw new Error(`Scripted model ${id}: ${script.length - used} of ${script.length} steps were not used; the model was called ${requests.length} time${requests.length === 1 ? '' : 's'}.`);
      }
    },
  };
  if (options.stream !== true) return model;
  return Object.assign(model, {
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      yield* streamResponse(await respond(request), request.signal);
    },
  });
}

function toResponse(scripted: ScriptedResponse, call: number): ModelResponse {
  if (scripted.parts !== undefined) {
    const derived = partsSummary(scripted.parts);
    const toolCalls = derived.toolCalls;
    const reasoning = scripted.reasoning ?? derived.reasoning;
    return {
      text: scripted.text ?? derived.text,
      toolCalls,
      parts: scripted.parts,
      finishReason: scripted.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      ...(scripted.usage === undefined ? {} : { usage: scripted.usage }),
      ...(reasoning === undefined ? {} : { reasoning }),
      ...(scripted.providerData === undefined ? {} : { providerData: scripted.providerData }),
      ...(scripted.warnings === undefined ? {} : { warnings: scripted.warnings }),
    };
  }
  const toolCalls: ModelToolCall[] = (scripted.toolCalls ?? []).map((toolCall, index) => ({
    id: toolCall.id ?? `call_${call}_${index + 1}`,
    name: toolCall.name,
    arguments: toolCall.arguments ?? {},
  }));
  return {
    text: scripted.text ?? '',
    toolCalls,
    finishReason: scripted.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    ...(scripted.usage === undefined ? {} : { usage: scripted.usage }),
    ...(scripted.reasoning === undefined ? {} : { reasoning: scripted.reasoning }),
    ...(scripted.refusal === undefined ? {} : { refusal: scripted.refusal }),
    ...(scripted.providerData === undefined ? {} : { providerData: scripted.providerData }),
    ...(scripted.warnings === undefined ? {} : { warnings: scripted.warnings }),
  };
}

function describeLast(request: ModelRequest): string {
  const last = request.messages[request.messages.length - 1];
  if (last === undefined) return 'The history was empty.';
  const content = last.content.length > 80 ? `${last.content.slice(0, 80)}...` : last.content;
  return `The last message was ${last.role}: ${JSON.stringify(content)}.`;
}
