import type { ModelResponse } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { isOpenAIError, type OpenAIError, type OpenAIErrorCode } from '../src/index.js';
import { useLoopbackServer, type LoopbackServer, type ScriptedResponse } from './loopback-server.js';
import { recordingModel, runCall, type CallKind, type Outcome } from './model-call.js';
import { streamedAnswer } from './scripted-answer.js';
import { isStreamRecording, recordedBody, recordedLines, recordedOutcome, recordedResponse, recordings, recordingsDir, type Recording } from './recorded-stream-cases.js';

// Every response body in the shared fixtures' recorded-streams/ (recorded from real providers by vercel/ai,
// pydantic-ai and openai-node), served by a real HTTP server on loopback, whole and in seeded random
// slices (one fixed seed plus one per run, printed in the test name; WEIR_SLICE_SEED pins it), through
// both complete() and stream(). The expected answer is read from the recording itself; the cases that
// taught this package something are pinned by hand below as well.
const RUN_SEED = Number(process.env['WEIR_SLICE_SEED'] ?? Date.now() % 1_000_000);

/**
 * Random slices of 1-7 bytes for small bodies; a bigger one (up to 270 KB) in about 300 slices of
 * random size from 1 byte up, so that each test stays well under a second and cuts still land anywhere.
 */
function slicesFor(recording: Recording, seed: number): ScriptedResponse['slices'] {
  return { seed, min: 1, max: Math.max(7, Math.ceil(Buffer.byteLength(recordedBody(recording)) / 150)) };
}

const STATUS_CODES: Readonly<Record<number, OpenAIErrorCode>> = { 400: 'BAD_REQUEST', 404: 'NOT_FOUND' };

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

function answer(outcome: Outcome): ModelResponse {
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.response!;
}

function deltas(outcome: Outcome, type: 'text-delta' | 'reasoning-delta'): string {
  return outcome.events.flatMap((event) => (event.type === type ? [event.text] : [])).join('');
}

/** The call's outcome must be what the recording says. */
function expectRecordedOutcome(recording: Recording, kind: CallKind, outcome: Outcome): void {
  const expected = recordedOutcome(recording);
  if (expected.kind === 'error') {
    expect(outcome.response).toBeUndefined();
    expect(isOpenAIError(outcome.error), String(outcome.error)).toBe(true);
    const error = outcome.error as OpenAIError;
    expect(error.code).toBe(STATUS_CODES[expected.status]);
    expect(error.status).toBe(expected.status);
    expect(error.retryable).toBe(false);
    expect(error.requestId).toBe('req_recorded');
    expect(outcome.retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
    return;
  }
  const response = answer(outcome);
  expect(response.text).toBe(expected.text);
  expect(response.reasoning).toBe(expected.reasoning === '' ? undefined : expected.reasoning);
  expect(response.refusal).toBe(expected.refusal === '' ? undefined : expected.refusal);
  expect(response.finishReason).toBe(expected.finishReason);
  expect(response.usage).toEqual(expected.usage);
  expect(response.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments }))).toEqual(expected.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })));
  response.toolCalls.forEach((call, position) => {
    // A call the provider sent without an id gets a synthesised, stable one.
    expect(call.id).toBe(expected.toolCalls[position]!.id ?? `call_1_${position}`);
  });
  if (kind === 'stream') {
    expect(deltas(outcome, 'text-delta')).toBe(expected.text);
    expect(deltas(outcome, 'reasoning-delta')).toBe(expected.reasoning);
    expect(outcome.events.at(-1)).toEqual({ type: 'finish', response });
  }
  expect(outcome.retries).toEqual([]);
  expect(server.requests).toHaveLength(1);
}

// Where the shared fixtures are absent these are skipped, and recorded-stream-cases.ts has said so in one line.
describe.skipIf(recordingsDir === undefined)('recorded provider streams', () => {
  describe('the recordings', () => {
    it('are the 47 of the manifest, each with its source', () => {
      expect(recordings).toHaveLength(47);
      expect(new Set(recordings.map((recording) => recording.id)).size).toBe(47);
      for (const recording of recordings) {
        expect(recordedBody(recording).length, recording.id).toBeGreaterThan(0);
        expect(recording.source.repo, recording.id).toMatch(/^[\w-]+\/[\w-]+$/);
        expect(recording.source.commit, recording.id).toMatch(/^[0-9a-f]{40}$/);
      }
    });

    it('come out as 42 answers and 5 errors', () => {
      const kinds = recordings.map((recording) => recordedOutcome(recording).kind);
      expect(kinds.filter((kind) => kind === 'answer')).toHaveLength(42);
      expect(kinds.filter((kind) => kind === 'error')).toHaveLength(5);
    });
  });

  describe.each(recordings.map((recording) => [recording.id, recording] as const))('%s', (_id, recording) => {
    const deliveries = [
      ['whole', {}],
      ['slices seed 11', { slices: slicesFor(recording, 11) }],
      [`slices seed ${RUN_SEED}`, { slices: slicesFor(recording, RUN_SEED) }],
    ] as const;
    describe.each(deliveries)('%s', (_label, delivery) => {
      it.each(['complete', 'stream'] as const)('%s()', async (kind) => {
        server.script(recordedResponse(recording, delivery));
        const { model, retries } = recordingModel(server);
        expectRecordedOutcome(recording, kind, await runCall(kind, model, retries));
      });
    });
  });

  /** Runs one recording through `kind` and returns the outcome. */
  async function replay(id: string, kind: CallKind = 'complete', delivery: Partial<ScriptedResponse> = {}): Promise<Outcome> {
    const recording = recordings.find((candidate) => candidate.id === id);
    if (recording === undefined) throw new Error(`No recording ${id}`);
    server.script(recordedResponse(recording, delivery));
    const { model, retries } = recordingModel(server);
    return runCall(kind, model, retries);
  }

  describe('what the recordings taught', () => {
    it('Mistral thinking parts are reasoning, not dropped', async () => {
      const outcome = await replay('vercel:mistral__mistral-reasoning', 'stream');
      expect(answer(outcome)).toEqual({
        text: '2 + 2 = 4',
        reasoning: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.',
        toolCalls: [],
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 46 },
      });
      expect(outcome.events.filter((event) => event.type === 'reasoning-delta').map((event) => event.type === 'reasoning-delta' && event.text)).toEqual([
        'The user is asking',
        ' for 2+2. This is basic arithmetic. 2+2=4.',
      ]);
    });

    it('Groq usage sent only in x_groq.usage is read', async () => {
      const response = answer(await replay('vercel:groq__groq-text'));
      expect(response.usage).toEqual({ inputTokens: 45, outputTokens: 662 });
    });

    it('Snowflake Cortex: content and [DONE] without any finish_reason is a finished answer, not retried', async () => {
      const outcome = await replay('pydantic-ai:test_snowflake__test_snowflake_model_streaming.0', 'stream');
      expect(answer(outcome)).toEqual({ text: '4', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 22, outputTokens: 5, cachedInputTokens: 0 } });
      expect(outcome.retries).toEqual([]);
    });

    it('Snowflake Cortex: reasoning sent only as reasoning_details text is reasoning', async () => {
      const response = answer(await replay('pydantic-ai:test_snowflake__test_snowflake_thinking_streaming.0'));
      expect(response.reasoning).toMatch(/15 \* 27 = 405/);
      expect(response.text).toMatch(/405/);
    });

    it('the same stream cut before [DONE] is incomplete, and retried', async () => {
      const recording = recordings.find((candidate) => candidate.id === 'pydantic-ai:test_snowflake__test_snowflake_model_streaming.0')!;
      const lines = recordedLines(recording);
      const done = lines.indexOf('data: [DONE]');
      server.script({ ...recordedResponse(recording), body: undefined, lines, cutAtLine: done }, { ...recordedResponse(recording), body: undefined, lines });
      const { model, retries } = recordingModel(server, { maxRetries: 1, maxRetryDelayMs: 60_000 });
      const outcome = await runCall('complete', model, retries);
      expect(answer(outcome).text).toBe('4');
      expect(retries).toHaveLength(1);
      expect(['NETWORK', 'INCOMPLETE_STREAM']).toContain(retries[0]!.error.code);
      expect(server.requests).toHaveLength(2);
    });

    it("Groq's in-stream tool_use_failed (status_code 400) is a bad request, never retried", async () => {
      for (const kind of ['complete', 'stream'] as const) {
        const outcome = await replay('pydantic-ai:test_groq__test_tool_use_failed_error_streaming.0', kind);
        const error = outcome.error as OpenAIError;
        expect(isOpenAIError(error, 'BAD_REQUEST'), String(error)).toBe(true);
        expect(error.retryable).toBe(false);
        expect(error.status).toBe(400);
        expect(error.providerCode).toBe('tool_use_failed');
        expect(error.providerMessage).toMatch(/^Tool call validation failed/);
        expect(outcome.retries).toEqual([]);
      }
      expect(server.requests).toHaveLength(2);
    });

    it('the same error over HTTP 400 is the same bad request', async () => {
      const error = (await replay('pydantic-ai:test_groq__test_tool_use_failed_error.0.status-400')).error as OpenAIError;
      expect(isOpenAIError(error, 'BAD_REQUEST')).toBe(true);
      expect(error.providerCode).toBe('tool_use_failed');
      expect(error.retryable).toBe(false);
    });

    it('a Gemini answer whose tool calls have no ids gets stable synthesised ones', async () => {
      const response = answer(await replay('pydantic-ai:test_openai__test_compatible_api_with_tool_calls_without_id.0.json-body'));
      expect(response.toolCalls.map((call) => call.id)).toEqual(['call_1_0']);
      expect(response.finishReason).toBe('tool_calls');
    });
  });

  describe('recorded streams cut halfway', () => {
    const streams = recordings.filter((recording) => isStreamRecording(recording) && recordedOutcome(recording).kind === 'answer');
    it.each(streams.map((recording) => [recording.id, recording] as const))('%s: a failed attempt, never a short answer', async (_id, recording) => {
      const lines = recordedLines(recording);
      const firstFinish = lines.findIndex((line) => /"finish_reason":\s*"/.test(line));
      // Cut before the finish event (or, without one, before [DONE]): half way through the data events.
      const end = firstFinish === -1 ? lines.indexOf('data: [DONE]') : firstFinish;
      const cutAtLine = Math.floor(end / 2);
      server.script({ ...recordedResponse(recording), body: undefined, lines, cutAtLine });
      const { model, retries } = recordingModel(server, { maxRetries: 0 });
      const outcome = await runCall('complete', model, retries);
      expect(outcome.response).toBeUndefined();
      expect(isOpenAIError(outcome.error), String(outcome.error)).toBe(true);
      expect(['NETWORK', 'INCOMPLETE_STREAM']).toContain((outcome.error as OpenAIError).code);
      expect((outcome.error as OpenAIError).retryable).toBe(true);
    });
  });
});

describe('thinkTags', () => {
  it('moves <think> content into reasoning over the wire, and refuses a non-boolean', async () => {
    server.script(streamedAnswer({ text: '<think>\nCount the files first.\n</think>\n\nThere are 3 files.' }, { slices: { seed: 4 } }));
    const { model, retries } = recordingModel(server, { thinkTags: true });
    const outcome = await runCall('stream', model, retries);
    expect(answer(outcome)).toMatchObject({ text: 'There are 3 files.', reasoning: '\nCount the files first.\n', finishReason: 'stop' });
    expect(deltas(outcome, 'text-delta')).toBe('There are 3 files.');
    expect(deltas(outcome, 'reasoning-delta')).toBe('\nCount the files first.\n');
    expect(() => recordingModel(server, { thinkTags: 'yes' as unknown as boolean })).toThrow(/thinkTags must be true or false/);
  });
});
