import type { LanguageModel, ModelMetadata, ModelRequest, ModelResponse, ModelStreamEvent } from '@weir/core';
import type { AiSdkLanguageModel, SpecVersion } from './ai-sdk-language-model.js';
import { AiSdkModelError } from './ai-sdk-model-error.js';
import { AnswerBuilder } from './answer-builder.js';
import { toAiSdkPrompt } from './to-ai-sdk-prompt.js';
import { toCallOptions } from './to-call-options.js';
import { warningText } from './warning-text.js';
import { withRetry, type RetryEvent } from './with-retry.js';

export type { RetryEvent } from './with-retry.js';

export interface FromAiSdkOptions {
  /** weir's id of the model, for logs and transcripts. Default `<provider>:<modelId>` (`anthropic.messages:claude-sonnet-4-5`). */
  readonly id?: string;
  /** What the model states about itself (context window, prices), for the budget. */
  readonly metadata?: ModelMetadata;
  /** Retries after a retryable `APICallError`. Default 2. */
  readonly maxRetries?: number;
  /** A longer requested wait surfaces the error instead of sleeping. Default 60 000 ms. */
  readonly maxRetryDelayMs?: number;
  /** Called before each wait between attempts. */
  readonly onRetry?: (event: RetryEvent) => void;
  /** Sent with every call as the SDK's `providerOptions` (`{ anthropic: { thinking: ... } }`); weir's own reasoning option is merged under it. */
  readonly providerOptions?: Record<string, Record<string, unknown>>;
}

const SPECS: ReadonlySet<string> = new Set<SpecVersion>(['v2', 'v3', 'v4']);

/**
 * Any AI SDK language model (provider spec v2, v3 or v4: AI SDK 5, 6 and 7) as a weir
 * `LanguageModel`, with `complete()` (`doGenerate`) and `stream()` (`doStream`). The model's
 * `provider` name is the tag of the provider data it records: each part's SDK `providerMetadata`
 * (a thinking signature, encrypted reasoning, a thought signature), sent back as that part's
 * `providerOptions`. A retryable `APICallError` is retried here (the SDK's `generateText` would; a
 * bare `doGenerate` does not); any other failure rejects with `AiSdkModelError` carrying the
 * provider's message. The request's signal goes to the SDK as `abortSignal`, which the providers
 * hand to their `fetch`. Throws a one-line `TypeError` for an object that is no such model.
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: FromAiSdkOptions = {}): LanguageModel {
  if (typeof model !== 'object' || model === null || typeof model.doGenerate !== 'function' || typeof model.doStream !== 'function') {
    throw new TypeError('fromAiSdk: expected an AI SDK language model (an object with doGenerate and doStream, like openai("gpt-5") of @ai-sdk/openai).');
  }
  const spec = model.specificationVersion;
  if (!SPECS.has(spec)) {
    throw new TypeError(`fromAiSdk: ${model.provider}:${model.modelId} speaks provider spec ${JSON.stringify(spec)}; weir speaks v2, v3 and v4 (AI SDK 5, 6, 7). A string model id needs the AI SDK gateway: pass a provider's model object.`);
  }
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError(`fromAiSdk: maxRetries must be a non-negative integer, got ${String(maxRetries)}.`);
  const tag = model.provider;
  const version = spec as SpecVersion;

  const prepare = (request: ModelRequest) => {
    const { options: callOptions, warnings } = toCallOptions(request, version, tag, options.providerOptions);
    return { call: { ...callOptions, prompt: toAiSdkPrompt(request.messages, version, tag) }, warnings };
  };
  const retry = (signal: AbortSignal | undefined) => ({ maxRetries, maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000, signal, onRetry: options.onRetry });
  const fail = (error: unknown, signal: AbortSignal | undefined): never => {
    // An abort rejects with the signal's reason, as every weir model does.
    if (signal?.aborted) throw signal.reason;
    throw error instanceof AiSdkModelError ? error : new AiSdkModelError(tag, error);
  };

  return Object.freeze({
    id: options.id ?? `${model.provider}:${model.modelId}`,
    provider: tag,
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),

    async complete(request: ModelRequest): Promise<ModelResponse> {
      const { call, warnings } = prepare(request);
      let result: any;
      try {
        result = await withRetry(() => model.doGenerate(call), retry(request.signal));
      } catch (error) {
        fail(error, request.signal);
      }
      const answer = new AnswerBuilder(tag);
      for (const part of result.content ?? []) {
        if (part.type === 'text' || part.type === 'reasoning') answer.whole(part.type, part.text, part.providerMetadata);
        else if (part.type === 'tool-call') answer.toolCall(part);
      }
      return answer.response(result.finishReason, result.usage, [...warnings, ...(result.warnings ?? []).map((w: unknown) => warningText(tag, w))]);
    },

    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      const { call, warnings } = prepare(request);
      let result: any;
      try {
        result = await withRetry(() => model.doStream(call), retry(request.signal));
      } catch (error) {
        fail(error, request.signal);
      }
      const answer = new AnswerBuilder(tag);
      const toolIndex = new Map<string, number>();
      let finish: { finishReason: unknown; usage: unknown } | undefined;
      const reader = (result.stream as ReadableStream<any>).getReader();
      let ended = false;
      try {
        for (;;) {
          let next: { done: boolean; value?: any };
          try {
            next = await reader.read();
          } catch (error) {
            fail(error, request.signal);
          }
          if (next!.done) {
            ended = true;
            break;
          }
          const part = next!.value;
          switch (part.type) {
            case 'stream-start':
              for (const warning of part.warnings ?? []) warnings.push(warningText(tag, warning));
              break;
            case 'text-start':
            case 'reasoning-start':
              answer.start(part.type === 'text-start' ? 'text' : 'reasoning', part.id, part.providerMetadata);
              break;
            case 'text-delta':
            case 'reasoning-delta': {
              const type = part.type === 'text-delta' ? 'text' : 'reasoning';
              // v2 before its last releases called the delta `textDelta`.
              const text: string = part.delta ?? part.textDelta ?? '';
              answer.delta(type, part.id, text, part.providerMetadata);
              if (text !== '') yield { type: type === 'text' ? 'text-delta' : 'reasoning-delta', text };
              break;
            }
            case 'text-end':
            case 'reasoning-end':
              answer.end(part.type === 'text-end' ? 'text' : 'reasoning', part.id, part.providerMetadata);
              break;
            case 'tool-input-start':
              if (part.providerExecuted === true) break;
              toolIndex.set(part.id, toolIndex.size);
              yield { type: 'tool-call-delta', index: toolIndex.get(part.id)!, id: part.id, name: part.toolName, argumentsDelta: '' };
              break;
            case 'tool-input-delta': {
              const index = toolIndex.get(part.id);
              if (index !== undefined && part.delta !== '') yield { type: 'tool-call-delta', index, argumentsDelta: part.delta };
              break;
            }
            case 'tool-call':
              answer.toolCall(part);
              break;
            case 'finish':
              finish = { finishReason: part.finishReason, usage: part.usage };
              break;
            case 'error':
              // A failure inside the stream (an overloaded provider mid-answer) fails the call: no partial answer is taken as success.
              fail(part.error, request.signal);
          }
        }
      } finally {
        // A consumer that stops early (or a failure) cancels the stream: the provider's response body is closed.
        if (!ended) void reader.cancel().catch(() => undefined);
        reader.releaseLock();
      }
      if (finish === undefined) fail(new Error('the stream ended without a finish part'), request.signal);
      yield { type: 'finish', response: answer.response(finish!.finishReason, finish!.usage, warnings) };
    },
  });
}
