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
    // 10 comments 100 ms apart: a second before any data, with an idle timeout of 500 ms (a busy
    // machine may delay a comment by up to 400 ms before the test would fail for the wrong reason).
    server.script({ lines: keepAlivesThen(10, 'Ready.'), pauseMs: 100 });
    const { model, retries } = recordingModel(server, { idleTimeoutMs: 500 });
    const outcome = await runCall('stream', model, retries);
    expect(outcome.error).toBeUndefined();
    expect(outcome.response?.text).toBe('Ready.');
    // Comments are liveness, never output.
    expect(outcome.events.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual(['Ready.']);
  });

  it('fires when the server goes silent, as a retryable IDLE_TIMEOUT', async () => {
    server.script({ lines: answerLines({ text: 'too slow' }), pauseMs: 2_000 });
    const { model, retries } = recordingModel(server, { idleTimeoutMs: 100, maxRetries: 0 });
    const started = performance.now();
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, 'IDLE_TIMEOUT')).toBe(true);
    expect((outcome.error as { retryable: boolean }).retryable).toBe(true);
    // Long before the server's 2 s pause ends, with room for a busy machine.
    expect(performance.now() - started).toBeLessThan(1_500);
    // On a busy machine the 100 ms idle timer can fire before the request reaches the server;
    // when it did reach it, the abandoned connection must be closed.
    if (server.requests[0] !== undefined) await server.requests[0].closed;
  });

  it('does not count the consumer\'s own time as server silence', async () => {
    // Paced, so the body is still open while the consumer works (a finished body cannot time out).
    server.script({ lines: answerLines({ text: 'a b c d e' }), pauseMs: 20 });
    const { model } = recordingModel(server, { idleTimeoutMs: 300 });
    const texts: string[] = [];
    for await (const event of model.stream(REQUEST)) {
      if (event.type === 'text-delta') {
        texts.push(event.text);
        await new Promise((resolve) => setTimeout(resolve, 450));
      }
    }
    expect(texts.join('')).toBe('a b c d e');
  });
});

describe('overall deadline', () => {
  it('ends a stream kept alive forever with TIMEOUT, which is not retried', async () => {
    // DeepSeek under load: comments for a very long time, the idle timer never fires.
    // A comment every 50 ms keeps the 400 ms idle timer from firing; the 1.2 s deadline still holds.
    server.script({ lines: Array.from({ length: 200 }, () => [': keep-alive', '']).flat(), pauseMs: 50 });
    const { model, retries } = recordingModel(server, { idleTimeoutMs: 400, timeoutMs: 1_200, maxRetries: 3 });
    const started = performance.now();
    const outcome = await runCall('complete', model, retries);
    expect(isOpenAIError(outcome.error, 'TIMEOUT')).toBe(true);
    expect(performance.now() - started).toBeLessThan(3_000);
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
