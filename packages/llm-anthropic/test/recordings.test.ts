import type { FinishReason, ModelRequest, ModelResponse, ModelToolCall } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { isAnthropicError, type AnthropicError } from '../src/index.js';
import { useLoopbackServer, type LoopbackServer } from '../../llm-openai/test/loopback-server.js';
import { loadRecordings, parsedArguments, recordingsFolder, replayCases, servedResponse, slicesFor, type ReplayCase } from '../../llm-openai/test/shared-recordings.js';
import { loopbackModel, runCall, type CallKind, type Outcome } from './anthropic-call.js';

// Every Messages API recording of the shared fixtures folder recorded-streams/anthropic/ (recorded
// from the live API by vercel/ai, pydantic-ai, charmbracelet/fantasy and simonw/llm-anthropic),
// served by a real HTTP server on loopback, whole and in seeded random slices (one seed per run, in
// the test name; WEIR_SLICE_SEED pins it), through complete() and stream(): weir's answer must be
// the manifest's.
const RUN_SEED = Number(process.env['WEIR_SLICE_SEED'] ?? Date.now() % 1_000_000);
const folder = recordingsFolder('anthropic');

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

const REQUEST: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools: [] };

const FINISH: Readonly<Record<string, FinishReason>> = { end_turn: 'stop', stop_sequence: 'stop', pause_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' };

function expectAnswer(replay: ReplayCase, kind: CallKind, outcome: Outcome): void {
  const expected = replay.expect as ReplayCase['expect'] & { redactedThinkingBlocks?: number; stopSequence?: string; messageId?: string };
  if (replay.recording.kind === 'error') {
    expect(outcome.response).toBeUndefined();
    expect(isAnthropicError(outcome.error), String(outcome.error)).toBe(true);
    const error = outcome.error as AnthropicError;
    expect(error).toMatchObject({ retryable: false, providerType: expected.errorType, providerMessage: expected.errorMessage, code: 'BAD_REQUEST' });
    return;
  }
  if (outcome.error !== undefined) throw outcome.error;
  const response = outcome.response as ModelResponse;
  expect(response.finishReason).toBe(FINISH[expected.finishReason!]);
  expect(response.providerData?.['anthropic']).toMatchObject({ stopReason: expected.finishReason, ...(expected.messageId === undefined ? {} : { id: expected.messageId }) });
  expect(response.text).toBe(expected.text);
  expect(response.reasoning ?? '').toBe(expected.reasoning);
  const caller = (call: ModelToolCall) => (call.providerData?.['anthropic']?.['caller'] as { type?: string } | undefined)?.type;
  expect(response.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: parsedArguments(call.arguments), ...(caller(call) === undefined ? {} : { caller: caller(call) }) }))).toEqual(expected.toolCalls);
  // Signatures and redacted thinking, byte for byte and in order, where the next request takes them from.
  const own = (response.parts ?? []).flatMap((part) => (part.type === 'reasoning' ? [part.providerData?.['anthropic'] ?? {}] : []));
  expect(own.flatMap((data) => (typeof data['signature'] === 'string' ? [data['signature']] : []))).toEqual(expected.reasoningSignatures ?? []);
  expect(own.filter((data) => typeof data['redactedData'] === 'string')).toHaveLength(expected.redactedThinkingBlocks ?? 0);
  if (expected.usage === null) {
    expect(response.usage).toBeUndefined();
  } else {
    // weir counts every input token: Anthropic's input_tokens excludes cache reads and writes.
    const u = expected.usage;
    const read = u['cacheReadTokens'];
    const written = u['cacheWriteTokens'];
    expect(response.usage).toEqual({
      inputTokens: u['inputTokens']! + (read ?? 0) + (written ?? 0),
      outputTokens: u['outputTokens'],
      ...(read === undefined ? {} : { cacheReadTokens: read, cachedInputTokens: read }),
      ...(written === undefined ? {} : { cacheWriteTokens: written }),
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

describe.skipIf(folder === undefined)('the Messages API recordings', () => {
  const recordings = folder === undefined ? [] : loadRecordings(folder);
  const cases = folder === undefined ? [] : replayCases(folder, recordings);

  it('are all read: 195 recordings from four projects', () => {
    expect(recordings).toHaveLength(195);
    expect(new Set(recordings.map((recording) => recording.source.split('@')[0]))).toEqual(new Set(['vercel/ai', 'pydantic/pydantic-ai', 'charmbracelet/fantasy', 'simonw/llm-anthropic']));
  });

  it.each(cases.map((replay) => [replay.name, replay] as const))(`%s: whole and in random slices (seed ${RUN_SEED}), through complete() and stream()`, async (_name, replay) => {
    const runs = (['complete', 'stream'] as const).flatMap((kind) => [
      { kind, served: servedResponse(replay, 'anthropic') },
      { kind, served: servedResponse(replay, 'anthropic', { slices: slicesFor(replay, RUN_SEED) }) },
    ]);
    server.script(...runs.map((run) => run.served));
    const outcomes = await Promise.all(
      runs.map(async ({ kind }) => {
        const { model, retries } = loopbackModel(server, { maxRetries: 0 });
        return { kind, outcome: await runCall(kind, model, retries, REQUEST) };
      }),
    );
    for (const { kind, outcome } of outcomes) expectAnswer(replay, kind, outcome);
    expect(server.requests).toHaveLength(runs.length);
  });
});
