import type { ModelRequest, ModelResponse, ModelStreamEvent, ToolSchema } from '@weir/core';
import { vi } from 'vitest';
import { createOpenAIModel, type OpenAIModel, type OpenAIModelOptions, type RetryEvent } from '../src/index.js';
import { LOOPBACK_API_KEY, type LoopbackServer } from './loopback-server.js';

export type CallKind = 'complete' | 'stream';

/** How a call ended: an answer or an error, the events `stream()` yielded, the retries taken. */
export interface Outcome {
  readonly response: ModelResponse | undefined;
  readonly error: unknown;
  readonly events: readonly ModelStreamEvent[];
  readonly retries: readonly RetryEvent[];
}

export const TOOLS: readonly ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'list_dir', description: 'List a directory', parameters: { type: 'object', properties: { path: { type: 'string' }, depth: { type: 'integer' } } } },
  { name: 'write_file', description: 'Write a file', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
];

export const REQUEST: ModelRequest = {
  messages: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Go.' },
  ],
  tools: TOOLS,
};

/**
 * A model pointed at `server`, recording its retries. With `advanceFakeTimers`, each retry wait is
 * fast-forwarded as soon as it starts (the test must have called `vi.useFakeTimers()`).
 */
export function recordingModel(
  server: LoopbackServer,
  options: Partial<OpenAIModelOptions> = {},
  { advanceFakeTimers = false }: { advanceFakeTimers?: boolean } = {},
): { model: OpenAIModel; retries: RetryEvent[] } {
  const retries: RetryEvent[] = [];
  const model = createOpenAIModel({
    baseURL: server.baseURL,
    apiKey: LOOPBACK_API_KEY,
    model: 'fixture-model-1',
    ...options,
    onRetry: (event) => {
      retries.push(event);
      options.onRetry?.(event);
      // The wait's timer is set right after onRetry returns; a microtask later it can be skipped.
      if (advanceFakeTimers) void Promise.resolve().then(() => vi.advanceTimersByTimeAsync(event.delayMs));
    },
  });
  return { model, retries };
}

/** Runs one call through `complete()` or `stream()` and records how it ended. Never rejects. */
export async function runCall(kind: CallKind, model: OpenAIModel, retries: readonly RetryEvent[], request: ModelRequest = REQUEST): Promise<Outcome> {
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
