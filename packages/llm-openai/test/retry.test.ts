import type { Message } from '@weir/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createOpenAIModel, isOpenAIError, type OpenAIError } from '../src/index.js';
import { fixtureCase, fixtureResponse } from './fixture-cases.js';
import { LOOPBACK_API_KEY, startLoopbackServer, useLoopbackServer, type LoopbackServer, type ScriptedResponse } from './loopback-server.js';
import { recordingModel, REQUEST, runCall, TOOLS } from './model-call.js';
import { streamedAnswer } from './scripted-answer.js';

// Retry policy scenarios through the loopback server, on fake timers: every wait is measured on
// the fake clock, never slept for real.
let server: LoopbackServer;
useLoopbackServer((started) => (server = started));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});

const RECOVERED = streamedAnswer({ text: 'recovered' });
const status = (code: number, headers: Record<string, string> = {}, body: unknown = { error: { message: `status ${code}` } }): ScriptedResponse => ({
  status: code,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

/** Resolves once `count` requests have arrived (the server runs on real I/O, so poll briefly). */
async function requestsArrived(count: number): Promise<void> {
  await vi.waitFor(() => expect(server.requests.length).toBeGreaterThanOrEqual(count), { timeout: 2_000, interval: 5 });
}

describe('server hints', () => {
  it('waits exactly the 7 s of retry-after, not a millisecond less', async () => {
    server.script(fixtureResponse(fixtureCase('http_429_rate_limited_retry_after_seconds')), RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 1 });
    const pending = model.complete(REQUEST);
    await vi.waitFor(() => expect(retries).toHaveLength(1), { timeout: 2_000, interval: 5 });
    expect(retries[0]!.delayMs).toBe(7_000);

    await vi.advanceTimersByTimeAsync(6_999);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await requestsArrived(2);
    expect((await pending).text).toBe('recovered');
  });

  it('reads retry-after as an HTTP date', async () => {
    server.script(status(503, { 'retry-after': new Date(Date.now() + 3_000).toUTCString() }), RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    expect((await model.complete(REQUEST)).text).toBe('recovered');
    expect(retries[0]!.delayMs).toBe(3_000);
  });

  it('prefers retry-after-ms over retry-after', async () => {
    server.script(status(429, { 'retry-after-ms': '1250', 'retry-after': '9' }), RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    await model.complete(REQUEST);
    expect(retries[0]!.delayMs).toBe(1_250);
  });

  it('uses an exhausted rate limit\'s reset duration when there is no retry-after', async () => {
    server.script(status(429, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m30s' }), RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 1, maxRetryDelayMs: 120_000 }, { advanceFakeTimers: true });
    await model.complete(REQUEST);
    expect(retries[0]!.delayMs).toBe(90_000);
  });

  it('surfaces the error instead of sleeping past maxRetryDelayMs', async () => {
    server.script(fixtureResponse(fixtureCase('http_429_rate_limited_retry_after_seconds')));
    const { model, retries } = recordingModel(server, { maxRetries: 3, maxRetryDelayMs: 5_000 });
    const outcome = await runCall('complete', model, retries);
    const error = outcome.error as OpenAIError;
    expect(isOpenAIError(error, 'RATE_LIMITED')).toBe(true);
    expect(error.retryAfterMs).toBe(7_000);
    expect(error.message).toContain('7 s');
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('surfaces the error instead of sleeping past the overall deadline', async () => {
    server.script(fixtureResponse(fixtureCase('http_503_overloaded_json')));
    const { model, retries } = recordingModel(server, { maxRetries: 3, timeoutMs: 1_500 });
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, 'PROVIDER_UNAVAILABLE')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe('backoff and budget', () => {
  it('backs off exponentially with jitter when the server gives no hint', async () => {
    const html = fixtureResponse(fixtureCase('http_502_html_from_proxy'));
    server.script(html, html, html, RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 3 }, { advanceFakeTimers: true });
    expect((await model.complete(REQUEST)).text).toBe('recovered');
    const delays = retries.map((retry) => retry.delayMs);
    expect(delays).toHaveLength(3);
    [500, 1_000, 2_000].forEach((base, index) => {
      expect(delays[index]).toBeGreaterThanOrEqual(base * 0.75);
      expect(delays[index]).toBeLessThanOrEqual(base);
    });
  });

  it('after the budget, surfaces a typed PROVIDER_UNAVAILABLE carrying the attempt count', async () => {
    const overloaded = fixtureResponse(fixtureCase('http_503_overloaded_json'));
    server.script(overloaded, overloaded, overloaded);
    const { model, retries } = recordingModel(server, { maxRetries: 2 }, { advanceFakeTimers: true });
    const outcome = await runCall('complete', model, retries);
    const error = outcome.error as OpenAIError;
    expect(isOpenAIError(error, 'PROVIDER_UNAVAILABLE')).toBe(true);
    expect(error.attempt).toBe(3);
    expect(error.requestId).toBe('req_fixture');
    expect(retries.map((retry) => retry.delayMs)).toEqual([2_000, 2_000]);
    expect(server.requests).toHaveLength(3);
  });

  it('maxRetries: 0 makes one attempt', async () => {
    server.script(fixtureResponse(fixtureCase('http_408_request_timeout')));
    const { model, retries } = recordingModel(server, { maxRetries: 0 });
    const outcome = await runCall('stream', model, retries);
    expect(isOpenAIError(outcome.error, 'PROVIDER_UNAVAILABLE')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('stream() retries a failed status before any output, like complete()', async () => {
    server.script(fixtureResponse(fixtureCase('http_409_conflict')), RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    const outcome = await runCall('stream', model, retries);
    expect(outcome.events.map((event) => event.type)).toEqual(['text-delta', 'finish']);
    expect(outcome.response?.text).toBe('recovered');
  });

  it('resends the exact same request, even if the caller appends to the history meanwhile', async () => {
    server.script(status(500), RECOVERED);
    const messages: Message[] = [{ role: 'user', content: 'Go.' }];
    const { model } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    const pending = model.complete({ messages, tools: TOOLS });
    await requestsArrived(1);
    messages.push({ role: 'user', content: 'appended later' });
    await pending;
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
    expect(server.requests[1]!.body).not.toContain('appended later');
  });
});

describe('what is never retried', () => {
  it.each([
    [400, 'BAD_REQUEST'],
    [401, 'AUTHENTICATION'],
    [402, 'QUOTA_EXCEEDED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [422, 'BAD_REQUEST'],
  ] as const)('%i, even with x-should-retry: true', async (code, errorCode) => {
    server.script(status(code, { 'x-should-retry': 'true' }));
    const { model, retries } = recordingModel(server, { maxRetries: 3 });
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, errorCode)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('a 503 with x-should-retry: false', async () => {
    server.script(status(503, { 'x-should-retry': 'false' }));
    const { model, retries } = recordingModel(server, { maxRetries: 3 });
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, 'PROVIDER_UNAVAILABLE')).toBe(true);
    expect((outcome.error as OpenAIError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('but a 418 with x-should-retry: true is retried', async () => {
    server.script(status(418, { 'x-should-retry': 'true' }), RECOVERED);
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    expect((await model.complete(REQUEST)).text).toBe('recovered');
    expect(retries[0]!.error.code).toBe('BAD_REQUEST');
  });
});

describe('waits are abortable', () => {
  it('an abort during the 7 s wait rejects at once with the reason, without another request', async () => {
    server.script(fixtureResponse(fixtureCase('http_429_rate_limited_retry_after_seconds')), RECOVERED);
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const { model, retries } = recordingModel(server, { maxRetries: 1, onRetry: () => controller.abort(reason) });
    const outcome = await runCall('complete', model, retries, { ...REQUEST, signal: controller.signal });
    expect(outcome.error).toBe(reason);
    expect(server.requests).toHaveLength(1);
    // The wait's timer is gone: nothing is left to fire.
    expect(vi.getTimerCount()).toBe(0);
    // The answer scripted for a second attempt was never asked for.
    expect(server.pending).toBe(1);
  });

  it('an already aborted signal makes no request at all', async () => {
    const { model, retries } = recordingModel(server);
    const outcome = await runCall('complete', model, retries, { ...REQUEST, signal: AbortSignal.abort('early') });
    expect(outcome.error).toBe('early');
    expect(server.requests).toHaveLength(0);
  });
});

describe('network errors', () => {
  it('are retried, then surface as NETWORK with a hint', async () => {
    const gone = await startLoopbackServer();
    await gone.close();
    const retries: number[] = [];
    const model = createOpenAIModel({
      baseURL: gone.baseURL,
      apiKey: LOOPBACK_API_KEY,
      model: 'm',
      maxRetries: 2,
      onRetry: (event) => {
        retries.push(event.delayMs);
        void Promise.resolve().then(() => vi.advanceTimersByTimeAsync(event.delayMs));
      },
    });
    const error = (await model.complete(REQUEST).catch((caught: unknown) => caught)) as OpenAIError;
    expect(isOpenAIError(error, 'NETWORK')).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.attempt).toBe(3);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('OPENAI_BASE_URL');
    expect(retries).toHaveLength(2);
  });
});
