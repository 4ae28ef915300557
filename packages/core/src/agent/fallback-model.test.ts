import { describe, expect, it } from 'vitest';
import { fallbackModel, isRetryableModelError } from './fallback-model.js';
import type { LanguageModel, ModelRequest, ModelStreamEvent } from './model.js';

const failing = (id: string, error: unknown): LanguageModel => ({ id, complete: () => Promise.reject(error) });
const answering = (id: string, text: string): LanguageModel => ({ id, complete: async () => ({ text, toolCalls: [], finishReason: 'stop' }) });
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const coded = (code: string, extra: object = {}) => Object.assign(new Error(code), { code, ...extra });

describe('isRetryableModelError', () => {
  it.each([coded('RATE_LIMITED'), coded('PROVIDER_UNAVAILABLE'), coded('TIMEOUT'), coded('NETWORK'), { status: 503 }, { status: 429 }, { status: 408 }, { retryable: true }])('retryable: %o', (error) => {
    expect(isRetryableModelError(error)).toBe(true);
  });
  it.each([coded('BAD_REQUEST'), coded('AUTHENTICATION', { retryable: true }), coded('CONTEXT_LENGTH_EXCEEDED'), coded('QUOTA_EXCEEDED', { status: 429 }), { status: 400 }, { status: 401, retryable: true }, new Error('plain'), 'a string', null])('final: %o', (error) => {
    expect(isRetryableModelError(error)).toBe(false);
  });
});

describe('fallbackModel', () => {
  it('answers with the next model after a retryable error and says which answered', async () => {
    const model = fallbackModel([failing('a', coded('RATE_LIMITED')), answering('b', 'from b')]);
    expect(await model.complete(request)).toMatchObject({ text: 'from b', model: 'b' });
    expect(model.id).toBe('fallback(a,b)');
  });

  it('rejects at once on an error that is not retryable', async () => {
    const second = answering('b', 'never');
    let asked = false;
    const model = fallbackModel([failing('a', coded('AUTHENTICATION')), { ...second, complete: (r) => ((asked = true), second.complete(r)) }]);
    await expect(model.complete(request)).rejects.toMatchObject({ code: 'AUTHENTICATION' });
    expect(asked).toBe(false);
  });

  it('never moves on once the request aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = fallbackModel([failing('a', coded('TIMEOUT')), answering('b', 'no')]);
    await expect(model.complete({ ...request, signal: controller.signal })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('streams: falls back before the first event, not after', async () => {
    const broken = (afterText: boolean): LanguageModel => ({
      id: 'a',
      complete: () => Promise.reject(new Error('unused')),
      async *stream(): AsyncGenerator<ModelStreamEvent> {
        if (afterText) yield { type: 'text-delta', text: 'half' };
        throw coded('NETWORK');
      },
    });
    const collect = async (model: LanguageModel) => {
      const out: ModelStreamEvent[] = [];
      for await (const event of model.stream!(request)) out.push(event);
      return out;
    };
    expect((await collect(fallbackModel([broken(false), answering('b', 'whole')]))).at(-1)).toMatchObject({ type: 'finish', response: { text: 'whole', model: 'b' } });
    await expect(collect(fallbackModel([broken(true), answering('b', 'whole')]))).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('a custom shouldFallback decides; bad input throws TypeError', async () => {
    const model = fallbackModel([failing('a', new Error('anything')), answering('b', 'ok')], { shouldFallback: () => true });
    expect((await model.complete(request)).text).toBe('ok');
    expect(() => fallbackModel([])).toThrow(TypeError);
    expect(() => fallbackModel([{} as LanguageModel])).toThrow(TypeError);
  });
});
