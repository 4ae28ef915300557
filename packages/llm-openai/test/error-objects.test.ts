import { describe, expect, it, vi } from 'vitest';
import { isOpenAIError, type OpenAIError } from '../src/index.js';
import { useLoopbackServer, type LoopbackServer, type ScriptedResponse } from './loopback-server.js';
import { recordingModel, runCall, type CallKind } from './model-call.js';
import { streamedAnswer } from './scripted-answer.js';

// An error object sent with status 200, inside a stream after some text or as the whole body, fails
// the call with the server's message and the status it names; it is never an answer. vLLM and SGLang
// write the error at the top level and then `[DONE]`; OpenRouter and newer vLLM nest it in `error`.
let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

const textChunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-e', object: 'chat.completion.chunk', created: 1767225600, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}`;

const shapes = {
  'top-level object: error (vLLM, SGLang)': (message: string, code: number) => ({ object: 'error', message, type: 'BadRequestError', param: null, code }),
  'nested error (OpenRouter, newer vLLM)': (message: string, code: number) => ({ error: { message, type: 'BadRequestError', param: null, code } }),
} as const;
type Shape = keyof typeof shapes;

/** The server's error after two text deltas, then `[DONE]` as vLLM sends it; or the error as the whole 200 body. */
function errorAnswer(shape: Shape, delivery: 'streamed' | 'whole', message: string, code: number): ScriptedResponse {
  const payload = shapes[shape](message, code);
  if (delivery === 'whole') return { body: payload };
  return { lines: [textChunk('Here is '), '', textChunk('half'), '', `data: ${JSON.stringify(payload)}`, '', 'data: [DONE]', ''] };
}

const cases = (['complete', 'stream'] as const).flatMap((kind) =>
  (Object.keys(shapes) as Shape[]).flatMap((shape) => (['streamed', 'whole'] as const).map((delivery) => [kind, shape, delivery] as const)),
);

async function failure(kind: CallKind): Promise<{ error: OpenAIError; events: readonly unknown[] }> {
  const { model, retries } = recordingModel(server, { maxRetries: 2 });
  const outcome = await runCall(kind, model, retries);
  expect(outcome.response, 'an error object must not end as an answer').toBeUndefined();
  expect(isOpenAIError(outcome.error), String(outcome.error)).toBe(true);
  return { error: outcome.error as OpenAIError, events: outcome.events };
}

describe('an error object in a 200 answer fails the call', () => {
  it.each(cases)('%s(), %s, %s: a 400 is BAD_REQUEST with the server message, not retried', async (kind, shape, delivery) => {
    const message = 'Grammar compilation failed for the requested JSON schema.';
    // One answer scripted: a retry would reach the strict server unanswered and fail the test.
    server.script(errorAnswer(shape, delivery, message, 400));
    const { error, events } = await failure(kind);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(400);
    expect(error.providerMessage).toBe(message);
    expect(error.message).toContain(message);
    expect(server.requests).toHaveLength(1);
    expect(events.some((event) => (event as { type: string }).type === 'finish')).toBe(false);
  });

  it.each(cases)('%s(), %s, %s: a context-length message is CONTEXT_LENGTH_EXCEEDED, not retried', async (kind, shape, delivery) => {
    const message = shape.startsWith('top-level')
      ? "The input (40210 tokens) is longer than the model's context length (32768 tokens)."
      : "This model's maximum context length is 32768 tokens. However, your request has 40210 input tokens. Please reduce the length of the input messages.";
    server.script(errorAnswer(shape, delivery, message, 400));
    const { error } = await failure(kind);
    expect(error.code).toBe('CONTEXT_LENGTH_EXCEEDED');
    expect(error.retryable).toBe(false);
    expect(error.providerMessage).toBe(message);
  });

  it('the newer vLLM message for a prompt over max_model_len is CONTEXT_LENGTH_EXCEEDED too', async () => {
    server.script(errorAnswer('top-level object: error (vLLM, SGLang)', 'whole', 'The decoder prompt (length 5000) is longer than the maximum model length of 4096.', 400));
    expect((await failure('complete')).error.code).toBe('CONTEXT_LENGTH_EXCEEDED');
  });

  it.each(Object.keys(shapes) as Shape[])('%s with a 5xx code in the stream is retried, and the retry answers', async (shape) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server.script(errorAnswer(shape, 'streamed', 'The engine is overloaded.', 503), streamedAnswer({ text: 'recovered' }));
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    const outcome = await runCall('complete', model, retries);
    expect(outcome.response?.text, String(outcome.error)).toBe('recovered');
    expect(retries.map((retry) => [retry.error.code, retry.error.providerMessage])).toEqual([['PROVIDER_UNAVAILABLE', 'The engine is overloaded.']]);
  });
});
