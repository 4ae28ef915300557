import type { FinishReason, ModelResponse, ModelStreamEvent, Usage } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { useLoopbackServer, type LoopbackServer } from '../../llm-openai/test/loopback-server.js';
import { loadRecordings, parsedArguments, recordingsFolder, replayCases, servedResponse, slicesFor, statusOf, type Expectation, type ReplayCase } from '../../llm-openai/test/shared-recordings.js';
import { createGoogleModel, isGoogleError, type GoogleError, type RetryEvent } from '../src/index.js';

// Every Gemini recording of the shared fixtures folder recorded-streams/gemini/ (recorded from the live API
// by vercel/ai, pydantic-ai, charmbracelet/fantasy and simonw/llm-gemini), served by a real HTTP
// server on loopback, whole and in seeded random slices (one seed per run, in the test name;
// WEIR_SLICE_SEED pins it), through complete() and stream(): weir's answer must be the manifest's.
const RUN_SEED = Number(process.env['WEIR_SLICE_SEED'] ?? Date.now() % 1_000_000);
const folder = recordingsFolder('gemini');
const BLOCKS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

interface Outcome {
  readonly response: ModelResponse | undefined;
  readonly error: unknown;
  readonly events: readonly ModelStreamEvent[];
  readonly retries: readonly RetryEvent[];
}

async function run(kind: 'complete' | 'stream'): Promise<Outcome> {
  const retries: RetryEvent[] = [];
  const model = createGoogleModel({ baseURL: `${server.origin}/v1beta`, apiKey: 'AIza-loopback-0123456789', model: 'gemini-fixture', maxRetries: 0, onRetry: (event) => retries.push(event) });
  const events: ModelStreamEvent[] = [];
  const request = { messages: [{ role: 'user' as const, content: 'Go.' }], tools: [] };
  try {
    if (kind === 'complete') return { response: await model.complete(request), error: undefined, events, retries };
    for await (const event of model.stream(request)) events.push(event);
    const finish = events.at(-1);
    return { response: finish?.type === 'finish' ? finish.response : undefined, error: undefined, events, retries };
  } catch (error) {
    return { response: undefined, error, events, retries };
  }
}

function finishReasonOf(expected: Expectation): FinishReason {
  if (expected.finishReason === 'STOP') return expected.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (expected.finishReason === 'MAX_TOKENS') return 'length';
  if (BLOCKS.has(expected.finishReason ?? '')) return 'content_filter';
  return 'error';
}

/** The manifest's raw counts as weir counts them (see the README: thoughts are output, tool-use prompts are input). */
function usageOf(expected: Expectation): Usage | undefined {
  const usage = expected.usage;
  if (usage === null || typeof usage['inputTokens'] !== 'number') return undefined;
  const input = usage['inputTokens'] + (usage['toolUsePromptTokens'] ?? 0);
  const output = typeof usage['outputTokens'] === 'number' ? usage['outputTokens'] + (usage['reasoningTokens'] ?? 0) : usage['totalTokens']! - input;
  const cached = usage['cacheReadTokens'];
  return {
    inputTokens: input,
    outputTokens: output,
    ...(cached !== undefined && { cacheReadTokens: cached, cachedInputTokens: cached }),
    ...(usage['reasoningTokens'] !== undefined && { reasoningTokens: usage['reasoningTokens'] }),
  };
}

function expectAnswer(replay: ReplayCase, kind: 'complete' | 'stream', outcome: Outcome): void {
  const expected = replay.expect;
  expect(outcome.retries).toEqual([]);
  if (replay.recording.kind === 'error' || expected.blockReason !== undefined) {
    expect(outcome.response).toBeUndefined();
    expect(isGoogleError(outcome.error), String(outcome.error)).toBe(true);
    const error = outcome.error as GoogleError;
    expect(error.retryable).toBe(false);
    if (expected.blockReason !== undefined) {
      expect(error.code).toBe('PROMPT_BLOCKED');
      expect(error.reason).toBe(expected.blockReason);
      expect(error.message).toContain(expected.blockReason);
    } else {
      expect(error.status).toBe(statusOf(replay.recording));
      expect(error.code).toBe(statusOf(replay.recording) === 404 ? 'NOT_FOUND' : 'BAD_REQUEST');
      expect(error.providerMessage).toBe(expected.errorMessage);
    }
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
    runnable ? expected.toolCalls.map((call, position) => ({ id: call.id ?? `call_1_${position}`, name: call.name, arguments: call.arguments })) : [],
  );
  expect(response.usage).toEqual(usageOf(expected));
  if (finishReason === 'content_filter') {
    expect(response.refusal).toContain(expected.finishReason);
    for (const category of expected.safetyBlockedCategories ?? []) expect(response.refusal).toContain(category);
  }
  if (kind === 'stream') {
    const deltas = (type: string) => outcome.events.flatMap((event) => (event.type === type && 'text' in event ? [event.text] : [])).join('');
    expect(deltas('text-delta')).toBe(expected.text);
    expect(deltas('reasoning-delta')).toBe(expected.reasoning);
    expect(outcome.events.at(-1)).toEqual({ type: 'finish', response });
  }
}

describe.skipIf(folder === undefined)('the Gemini recordings', () => {
  const recordings = folder === undefined ? [] : loadRecordings(folder);
  const cases = folder === undefined ? [] : replayCases(folder, recordings);

  it('are all read: 153 recordings from four projects', () => {
    expect(recordings).toHaveLength(153);
    expect(new Set(recordings.map((recording) => recording.source.split('@')[0]))).toEqual(new Set(['vercel/ai', 'pydantic/pydantic-ai', 'charmbracelet/fantasy', 'simonw/llm-gemini']));
  });

  // The four replays of a case run at once (each must give the answer, whichever copy it gets).
  it.each(cases.map((replay) => [replay.name, replay] as const))(`%s: whole and in random slices (seed ${RUN_SEED}), through complete() and stream()`, async (_name, replay) => {
    const kinds = ['complete', 'stream', 'complete', 'stream'] as const;
    server.script(...kinds.map((_kind, index) => servedResponse(replay, 'gemini', index < 2 ? {} : { slices: slicesFor(replay, RUN_SEED + index) })));
    const outcomes = await Promise.all(kinds.map(async (kind) => ({ kind, outcome: await run(kind) })));
    for (const { kind, outcome } of outcomes) expectAnswer(replay, kind, outcome);
    expect(server.requests).toHaveLength(kinds.length);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1beta/models/gemini-fixture:streamGenerateContent?alt=sse');
      expect(request.headers['x-goog-api-key']).toBe('AIza-loopback-0123456789');
    }
  });
});
