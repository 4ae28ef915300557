import { describe, expect, it } from 'vitest';
import { isOpenAIError } from '../src/index.js';
import { fixtureCase, fixtureResponse } from './fixture-cases.js';
import { useLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { recordingModel, REQUEST, runCall } from './model-call.js';
import { answerLines } from './scripted-answer.js';

// Real time, small numbers: the server paces itself with real timers.
let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

/** `count` keep-alive comments, one event apart, then a whole answer. */
function keepAlivesThen(count: number, text: string): string[] {
  return [...Array.from({ length: count }, () => [': keep-alive', '']).flat(), ...answerLines({ text })];
}

describe('idle timeout', () => {
  it('is reset by keep-alive comments: a long queue that is kept alive succeeds', async () => {
    // 8 comments 50 ms apart: 400 ms before any data, with an idle timeout of 200 ms.
    server.script({ lines: keepAlivesThen(8, 'Ready.'), pauseMs: 50 });
    const { model, retries } = recordingModel(server, { idleTimeoutMs: 200 });
    const outcome = await runCall('stream', model, retries);
    expect(outcome.error).toBeUndefined();
    expect(outcome.response?.text).toBe('Ready.');
    // Comments are liveness, never output.
    expect(outcome.events.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual(['Ready.']);
  });

  it('fires when the server goes silent, as a retryable IDLE_TIMEOUT', async () => {
    server.script({ lines: answerLines({ text: 'too slow' }), pauseMs: 400 });
    const { model, retries } = recordingModel(server, { idleTimeoutMs: 100, maxRetries: 0 });
    const started = performance.now();
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, 'IDLE_TIMEOUT')).toBe(true);
    expect((outcome.error as { retryable: boolean }).retryable).toBe(true);
    expect(performance.now() - started).toBeLessThan(350);
    // On a busy machine the 100 ms idle timer can fire before the request reaches the server;
    // when it did reach it, the abandoned connection must be closed.
    if (server.requests[0] !== undefined) await server.requests[0].closed;
  });

  it('does not count the consumer\'s own time as server silence', async () => {
    // Paced, so the body is still open while the consumer works (a finished body cannot time out).
    server.script({ lines: answerLines({ text: 'a b c d e' }), pauseMs: 20 });
    const { model } = recordingModel(server, { idleTimeoutMs: 80 });
    const texts: string[] = [];
    for await (const event of model.stream(REQUEST)) {
      if (event.type === 'text-delta') {
        texts.push(event.text);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    expect(texts.join('')).toBe('a b c d e');
  });
});

describe('overall deadline', () => {
  it('ends a stream kept alive forever with TIMEOUT, which is not retried', async () => {
    // DeepSeek under load: comments for a very long time, the idle timer never fires.
    server.script({ lines: Array.from({ length: 200 }, () => [': keep-alive', '']).flat(), pauseMs: 20 });
    const { model, retries } = recordingModel(server, { idleTimeoutMs: 200, timeoutMs: 300, maxRetries: 3 });
    const started = performance.now();
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, 'TIMEOUT')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('ends a call whose server sent headers and then nothing, with the idle timer off', async () => {
    const never = new Promise<void>(() => undefined);
    server.script(fixtureResponse(fixtureCase('text_stream_basic'), { gate: { beforeLine: 0, open: never } }));
    const { model, retries } = recordingModel(server, { timeoutMs: 150, idleTimeoutMs: Number.POSITIVE_INFINITY });
    const outcome = await runCall('stream', model, retries);
    expect(isOpenAIError(outcome.error, 'TIMEOUT')).toBe(true);
  });
});
