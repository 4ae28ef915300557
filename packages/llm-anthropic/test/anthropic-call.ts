import type { ModelRequest, ModelResponse, ModelStreamEvent, RetryEvent } from '@weir/core';
import { createAnthropicModel, type AnthropicError, type AnthropicModel, type AnthropicModelOptions } from '../src/index.js';
import { LOOPBACK_API_KEY, type LoopbackServer } from '../../llm-openai/test/loopback-server.js';

export type CallKind = 'complete' | 'stream';

/** How a call ended: an answer or an error, the events `stream()` yielded, the retries taken. */
export interface Outcome {
  readonly response: ModelResponse | undefined;
  readonly error: unknown;
  readonly events: readonly ModelStreamEvent[];
  readonly retries: readonly RetryEvent<AnthropicError>[];
}

/** A Claude model pointed at the loopback `server`, recording its retries. */
export function loopbackModel(server: LoopbackServer, options: Partial<AnthropicModelOptions> = {}): { model: AnthropicModel; retries: RetryEvent<AnthropicError>[] } {
  const retries: RetryEvent<AnthropicError>[] = [];
  const model = createAnthropicModel({
    baseURL: server.origin,
    apiKey: LOOPBACK_API_KEY,
    model: 'claude-sonnet-4-5',
    ...options,
    onRetry: (event) => {
      retries.push(event);
      options.onRetry?.(event);
    },
  });
  return { model, retries };
}

/** Runs one call through `complete()` or `stream()` and records how it ended. Never rejects. */
export async function runCall(kind: CallKind, model: AnthropicModel, retries: readonly RetryEvent<AnthropicError>[], request: ModelRequest): Promise<Outcome> {
  const events: ModelStreamEvent[] = [];
  try {
    if (kind === 'complete') return { response: await model.complete(request), error: undefined, events, retries };
    for await (const event of model.stream(request)) events.push(event);
    const finish = events.at(-1);
    if (finish?.type !== 'finish') throw new Error('stream() ended without a finish event');
    return { response: finish.response, error: undefined, events, retries };
  } catch (error) {
    return { response: undefined, error, events, retries };
  }
}
