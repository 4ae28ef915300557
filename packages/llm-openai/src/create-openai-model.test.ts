import { describe, expect, it, vi } from 'vitest';
import { createOpenAIModel } from './create-openai-model.js';
import { isOpenAIError } from './openai-error.js';
import type { OpenAIModelOptions } from './openai-model-options.js';

const SSE = ['data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}', '', 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}', '', 'data: [DONE]', '', ''].join('\n');

/** A fetch that records what it was given and answers with `body`. */
function stubFetch(body = SSE, init: ResponseInit = { headers: { 'content-type': 'text/event-stream' } }) {
  return vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => new Response(body, init));
}

function model(options: Partial<OpenAIModelOptions> = {}) {
  const fetch = stubFetch();
  return { fetch, model: createOpenAIModel({ baseURL: 'https://api.example.com/v1/', apiKey: 'sk-key-0001', model: 'gpt-x', fetch, ...options }) };
}

describe('createOpenAIModel', () => {
  it('POSTs to <baseURL>/chat/completions with the key as a bearer token', async () => {
    const { fetch, model: m } = model();
    expect(m.id).toBe('openai:gpt-x');
    expect(await m.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] })).toEqual({ text: 'hi', toolCalls: [], finishReason: 'stop' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://api.example.com/v1/chat/completions');
    const headers = new Headers(init!.headers);
    expect(init!.method).toBe('POST');
    expect(headers.get('authorization')).toBe('Bearer sk-key-0001');
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('accept')).toContain('text/event-stream');
    expect(JSON.parse(init!.body as string)).toMatchObject({ model: 'gpt-x', stream: true });
  });

  it('sends no Authorization for an empty key; extra headers win, case-insensitively', async () => {
    const { fetch, model: m } = model({ apiKey: '', headers: { 'api-key': 'azure-key-0001', 'X-Title': 'weir' } });
    await m.complete({ messages: [], tools: [] });
    const headers = new Headers(fetch.mock.calls[0]![1]!.headers);
    expect(headers.has('authorization')).toBe(false);
    expect(headers.get('api-key')).toBe('azure-key-0001');
    expect(headers.get('x-title')).toBe('weir');
    const { fetch: fetch2, model: m2 } = model({ headers: { Authorization: 'Bearer other-0001' } });
    await m2.complete({ messages: [], tools: [] });
    expect(new Headers(fetch2.mock.calls[0]![1]!.headers).get('authorization')).toBe('Bearer other-0001');
  });

  it('redacts credentials given as headers from errors too', async () => {
    const fetch = stubFetch('{"error":{"message":"bad key azure-key-0001"}}', { status: 401, headers: { 'content-type': 'application/json' } });
    const { model: m } = model({ apiKey: '', headers: { 'api-key': 'azure-key-0001' }, fetch });
    const error = await m.complete({ messages: [], tools: [] }).catch((caught: unknown) => caught);
    expect(isOpenAIError(error, 'AUTHENTICATION')).toBe(true);
    expect((error as Error).message).not.toContain('azure-key-0001');
  });

  it('makes no request before it is called, and stream() none before it is iterated', async () => {
    const { fetch, model: m } = model();
    const iterable = m.stream({ messages: [], tools: [] });
    expect(fetch).not.toHaveBeenCalled();
    const types: string[] = [];
    for await (const event of iterable) types.push(event.type);
    expect(types).toEqual(['text-delta', 'finish']);
  });

  it('refuses a 200 HTML page with a hint about the base URL', async () => {
    const fetch = stubFetch('<!doctype html><title>Welcome</title>', { headers: { 'content-type': 'text/html' } });
    const error = await model({ fetch }).model.complete({ messages: [], tools: [] }).catch((caught: unknown) => caught);
    expect(isOpenAIError(error, 'INVALID_RESPONSE')).toBe(true);
    expect((error as Error).message).toContain('OPENAI_BASE_URL');
  });

  it('reads a stream sent without a content type', async () => {
    const fetch = vi.fn(async () => new Response(new Blob([SSE]).stream(), { headers: {} }));
    expect((await model({ fetch }).model.complete({ messages: [], tools: [] })).text).toBe('hi');
  });

  it('turns an { error } body sent with status 200 into a typed error', async () => {
    const fetch = stubFetch('{"error":{"message":"Rate limit exceeded","code":429}}', { headers: { 'content-type': 'application/json' } });
    const error = await model({ fetch, maxRetries: 0 }).model.complete({ messages: [], tools: [] }).catch((caught: unknown) => caught);
    expect(isOpenAIError(error, 'RATE_LIMITED')).toBe(true);
  });

  it('turns an error event inside the stream into a typed error', async () => {
    const body = ['data: {"choices":[{"index":0,"delta":{"content":"par"},"finish_reason":null}]}', '', 'data: {"error":{"message":"Provider returned error","code":502}}', '', ''].join('\n');
    const fetch = stubFetch(body);
    const error = await model({ fetch, maxRetries: 0 }).model.complete({ messages: [], tools: [] }).catch((caught: unknown) => caught);
    expect(isOpenAIError(error, 'PROVIDER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('Provider returned error');
  });

  it.each([
    [{ baseURL: '' }, /baseURL/],
    [{ model: ' ' }, /model/],
    [{ apiKey: undefined as unknown as string }, /apiKey/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ idleTimeoutMs: -1 }, /idleTimeoutMs/],
    [{ maxRetries: 1.5 }, /maxRetries/],
    [{ maxRetryDelayMs: Number.NaN }, /maxRetryDelayMs/],
    [{ sendReasoning: 'sometimes' as 'never' }, /sendReasoning/],
  ])('refuses bad options %j with INVALID_CONFIG naming the option', (options, message) => {
    let caught: unknown;
    try {
      createOpenAIModel({ baseURL: 'https://api.example.com/v1', apiKey: 'k', model: 'm', ...options });
    } catch (error) {
      caught = error;
    }
    expect(isOpenAIError(caught, 'INVALID_CONFIG')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});
