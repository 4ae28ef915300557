import type { FinishReason, ModelResponse } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { isOpenAIError, type OpenAIError } from '../src/index.js';
import { useLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { recordingModel, runCall, type CallKind, type Outcome } from './model-call.js';
import { loadRecordings, parsedArguments, recordingsFolder, replayCases, servedResponse, slicesFor, statusOf, type Expectation, type ReplayCase } from './shared-recordings.js';

// Every Responses API recording of the shared fixtures folder recorded-streams/openai-responses/ (recorded
// from the live service by vercel/ai, pydantic-ai and charmbracelet/fantasy), served by a real HTTP
// server on loopback, whole and in seeded random slices (one seed per run, in the test name;
// WEIR_SLICE_SEED pins it), through complete() and stream(): weir's answer must be the manifest's.
const RUN_SEED = Number(process.env['WEIR_SLICE_SEED'] ?? Date.now() % 1_000_000);
const folder = recordingsFolder('openai-responses');

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

/** The manifest's finish (the API's status) as weir's finish reason. */
function finishReasonOf(expected: Expectation): FinishReason {
  if (expected.finishReason === 'completed') return expected.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (expected.finishReason === 'incomplete') return expected.incompleteReason === 'max_output_tokens' ? 'length' : expected.incompleteReason === 'content_filter' ? 'content_filter' : 'error';
  return 'error';
}

function expectAnswer(replay: ReplayCase, kind: CallKind, outcome: Outcome): void {
  const expected = replay.expect;
  if (replay.recording.kind === 'error') {
    expect(outcome.response).toBeUndefined();
    expect(isOpenAIError(outcome.error), String(outcome.error)).toBe(true);
    const error = outcome.error as OpenAIError;
    expect(error.retryable).toBe(false);
    expect(error.providerMessage).toBe(expected.errorMessage);
    if (replay.recording.transport === 'json') expect(error.status).toBe(statusOf(replay.recording));
    expect(error.code).toBe(expected.errorType === 'insufficient_quota' ? 'QUOTA_EXCEEDED' : statusOf(replay.recording) === 404 ? 'NOT_FOUND' : 'BAD_REQUEST');
    return;
  }
  if (outcome.error !== undefined) throw outcome.error;
  const response = outcome.response as ModelResponse;
  const finishReason = finishReasonOf(expected);
  expect(response.finishReason).toBe(finishReason);
  expect(response.text).toBe(expected.text);
  expect(response.reasoning ?? '').toBe(expected.reasoning);
  const runnable = finishReason === 'stop' || finishReason === 'tool_calls';
  expect(response.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: parsedArguments(call.arguments) }))).toEqual(
    runnable ? expected.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })) : [],
  );
  if (expected.usage === null) {
    expect(response.usage).toBeUndefined();
  } else {
    const cached = expected.usage['cacheReadTokens'];
    expect(response.usage).toEqual({
      inputTokens: expected.usage['inputTokens'],
      outputTokens: expected.usage['outputTokens'],
      ...(cached !== undefined && { cacheReadTokens: cached, cachedInputTokens: cached }),
      ...(expected.usage['reasoningTokens'] !== undefined && { reasoningTokens: expected.usage['reasoningTokens'] }),
    });
  }
  if (kind === 'stream') {
    const deltas = (type: string) => outcome.events.flatMap((event) => (event.type === type && 'text' in event ? [event.text] : [])).join('');
    expect(deltas('text-delta')).toBe(expected.text);
    expect(deltas('reasoning-delta')).toBe(expected.reasoning);
    expect(outcome.events.at(-1)).toEqual({ type: 'finish', response });
  }
  expect(outcome.retries).toEqual([]);
}

describe.skipIf(folder === undefined)('the Responses API recordings', () => {
  const recordings = folder === undefined ? [] : loadRecordings(folder);
  const cases = folder === undefined ? [] : replayCases(folder, recordings);

  it('are all read: 209 recordings from three projects', () => {
    expect(recordings).toHaveLength(209);
    expect(new Set(recordings.map((recording) => recording.source.split('@')[0]))).toEqual(new Set(['vercel/ai', 'pydantic/pydantic-ai', 'charmbracelet/fantasy']));
  });

  // The four replays of a case run at once (a strict server serves the same bytes to each; which
  // request gets the sliced copy does not matter, each must give the answer): CI's time is shared.
  it.each(cases.map((replay) => [replay.name, replay] as const))(`%s: whole and in random slices (seed ${RUN_SEED}), through complete() and stream()`, async (_name, replay) => {
    const runs = (['complete', 'stream'] as const).flatMap((kind) => [
      { kind, served: servedResponse(replay, 'openai-responses') },
      { kind, served: servedResponse(replay, 'openai-responses', { slices: slicesFor(replay, RUN_SEED) }) },
    ]);
    server.script(...runs.map((run) => run.served));
    const outcomes = await Promise.all(
      runs.map(async ({ kind }) => {
        const { model, retries } = recordingModel(server, { api: 'responses', maxRetries: 0 });
        return { kind, outcome: await runCall(kind, model, retries) };
      }),
    );
    for (const { kind, outcome } of outcomes) expectAnswer(replay, kind, outcome);
    expect(server.requests).toHaveLength(runs.length);
  });
});
