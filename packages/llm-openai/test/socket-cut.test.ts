import type { ModelResponse } from '@weir/core';
import { describe, expect, it, vi } from 'vitest';
import { isOpenAIError, type OpenAIError } from '../src/index.js';
import { fixtureCase, fixtureCases, fixtureResponse, isStreamCase } from './fixture-cases.js';
import { useLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { recordingModel, runCall } from './model-call.js';
import { streamedAnswer } from './scripted-answer.js';

// Every successful streamed fixture, cut at every line: before the finish event is whole, the call
// fails as a retryable attempt (never a short answer); after it, the answer is the uncut one.
// Dozens of calls per test: the timeout allows for a busy machine (about 1 s when idle).
const STREAM_CASES = fixtureCases.filter((fixture) => isStreamCase(fixture) && fixture.status === 200);

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

/** The answer without usage (a cut before the usage chunk loses it, and only it). */
function withoutUsage(response: ModelResponse): Omit<ModelResponse, 'usage'> {
  const { usage: _usage, ...rest } = response;
  return rest;
}

describe.each(STREAM_CASES.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
  const lines = fixture.body_or_sse_lines as readonly string[];
  const finishLine = lines.findIndex((line) => /"finish_reason":"/.test(line));
  // The finish event counts once its closing blank line is through; a fixture without one never completes.
  const completeFrom = finishLine === -1 ? Number.POSITIVE_INFINITY : finishLine + 2;

  it.each([
    ['whole', undefined],
    ['slices seed 5', { seed: 5 }],
  ] as const)('cut at every line (%s)', { timeout: 30_000 }, async (_label, slices) => {
    server.script(fixtureResponse(fixture));
    const { model: reference } = recordingModel(server);
    const uncut = fixture.name === 'stream_cut_without_finish_or_done' ? undefined : await reference.complete({ messages: [{ role: 'user', content: 'Go.' }], tools: [] });

    for (let cut = 0; cut <= lines.length; cut++) {
      for (const kind of ['complete', 'stream'] as const) {
        server.script(fixtureResponse(fixture, { cutAtLine: cut, ...(slices !== undefined && { slices }) }));
        const { model, retries } = recordingModel(server, { maxRetries: 0 });
        const outcome = await runCall(kind, model, retries, { messages: [{ role: 'user', content: 'Go.' }], tools: [] });
        const where = `${kind}() cut at line ${cut} of ${lines.length}`;
        if (cut >= completeFrom) {
          expect(outcome.error, where).toBeUndefined();
          expect(withoutUsage(outcome.response!), where).toEqual(withoutUsage(uncut!));
        } else {
          expect(outcome.response, where).toBeUndefined();
          expect(isOpenAIError(outcome.error), `${where}: ${String(outcome.error)}`).toBe(true);
          const error = outcome.error as OpenAIError;
          expect(['NETWORK', 'INCOMPLETE_STREAM'], where).toContain(error.code);
          expect(error.retryable, where).toBe(true);
          expect(outcome.events.some((event) => event.type === 'finish'), where).toBe(false);
        }
      }
    }
  });
});

describe('a cut attempt is retried', () => {
  it('complete() returns the next attempt\'s answer, never the cut one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const fixture = fixtureCase('parallel_tool_calls_sequential');
    // Cut in the middle of the second tool call's arguments.
    server.script(fixtureResponse(fixture, { cutAtLine: 10, slices: { seed: 3 } }), streamedAnswer({ text: 'recovered' }));
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    const outcome = await runCall('complete', model, retries);
    expect(outcome.response).toEqual({ text: 'recovered', toolCalls: [], finishReason: 'stop' });
    expect(retries.map((retry) => retry.error.code)).toEqual(['NETWORK']);
    expect(server.requests).toHaveLength(2);
    // The retry resent the very same request.
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
  });

  it('stream() retries a cut that came before any output reached the consumer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const fixture = fixtureCase('deepseek_keepalive_comments_stream');
    // Only keep-alive comments were sent before the cut: nothing was yielded yet.
    server.script(fixtureResponse(fixture, { cutAtLine: 6 }), streamedAnswer({ text: 'recovered' }));
    const { model, retries } = recordingModel(server, { maxRetries: 1 }, { advanceFakeTimers: true });
    const outcome = await runCall('stream', model, retries);
    expect(outcome.response?.text).toBe('recovered');
    expect(outcome.events.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual(['recovered']);
    expect(retries).toHaveLength(1);
  });
});
