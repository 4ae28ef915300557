import { createHarness, definePlugin, defineTool, type Message, type ModelResponse } from '@weir/core';
import { describe, expect, it, vi } from 'vitest';
import { isOpenAIError, type OpenAIError, type OpenAIModel, type OpenAIModelOptions, type OpenAIErrorCode } from '../src/index.js';
import { fixtureCases, fixtureResponse, isStreamCase, type FixtureCase } from './fixture-cases.js';
import { LOOPBACK_API_KEY, useLoopbackServer, type LoopbackServer, type ScriptedResponse } from './loopback-server.js';
import { recordingModel, REQUEST, runCall, TOOLS, type CallKind, type Outcome } from './model-call.js';
import { streamedAnswer } from './scripted-answer.js';

// Every case of the shared fixtures, replayed through a real HTTP server on loopback, delivered whole
// and in seeded random 1-7 byte slices (three fixed seeds plus one per run, printed in the test name;
// WEIR_SLICE_SEED pins it), once more with CRLF line ends, through both complete() and stream().
const RUN_SEED = Number(process.env['WEIR_SLICE_SEED'] ?? Date.now() % 1_000_000);
const DELIVERIES: readonly { readonly label: string; readonly delivery: Partial<ScriptedResponse> }[] = [
  { label: 'whole', delivery: {} },
  ...[1, 7, 1234, RUN_SEED].map((seed) => ({ label: `slices seed ${seed}`, delivery: { slices: { seed } } })),
  { label: 'CRLF, slices seed 99', delivery: { slices: { seed: 99 }, lineEnding: '\r\n' as const } },
];

interface CaseContext {
  readonly kind: CallKind;
  readonly outcome: Outcome;
  readonly server: LoopbackServer;
  readonly model: OpenAIModel;
  readonly fixture: FixtureCase;
}

interface Expectation {
  readonly options?: Partial<OpenAIModelOptions>;
  /** Answers scripted after the fixture's: what the attempt after a retry gets. */
  readonly then?: readonly ScriptedResponse[];
  /** Run under fake timers, each retry wait fast-forwarded. */
  readonly fakeTimers?: boolean;
  check(context: CaseContext): void | Promise<void>;
}

const RECOVERED = streamedAnswer({ text: 'recovered' });

function answer(outcome: Outcome): ModelResponse {
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.response!;
}

function failure(outcome: Outcome, code: OpenAIErrorCode): OpenAIError {
  expect(outcome.response).toBeUndefined();
  expect(isOpenAIError(outcome.error, code), `expected ${code}, got ${String(outcome.error)}`).toBe(true);
  return outcome.error as OpenAIError;
}

function textDeltas(outcome: Outcome): string[] {
  return outcome.events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
}

/** A plain text answer, streamed: checks text, stop, no tool calls, deltas that add up to the text. */
function textAnswer(text: string, extra?: (context: CaseContext, response: ModelResponse) => void): Expectation {
  return {
    check(context) {
      const response = answer(context.outcome);
      expect(response.text).toBe(text);
      expect(response.finishReason).toBe('stop');
      expect(response.toolCalls).toEqual([]);
      if (context.kind === 'stream') expect(textDeltas(context.outcome).join('')).toBe(text);
      expect(context.server.requests).toHaveLength(1);
      extra?.(context, response);
    },
  };
}

/** A status that must fail at once, typed, with the provider's message and request id kept. */
function terminal(code: OpenAIErrorCode, extra?: (error: OpenAIError, context: CaseContext) => void): Expectation {
  return {
    check(context) {
      const error = failure(context.outcome, code);
      expect(error.retryable).toBe(false);
      expect(error.status).toBe(context.fixture.status);
      expect(error.requestId).toBe('req_fixture');
      const body = context.fixture.body_or_sse_lines as { error: { message: string } };
      expect(error.providerMessage).toBe(body.error.message);
      expect(error.message).toContain(body.error.message);
      expect(error.message).not.toContain(LOOPBACK_API_KEY);
      expect(context.outcome.retries).toEqual([]);
      expect(context.server.requests).toHaveLength(1);
      extra?.(error, context);
    },
  };
}

/** A status that is retried: the wait is checked, the next attempt's answer returned. */
function retried(code: OpenAIErrorCode, checkWait: (delayMs: number) => void, extra?: (error: OpenAIError) => void): Expectation {
  return {
    options: { maxRetries: 1 },
    then: [RECOVERED],
    fakeTimers: true,
    check({ outcome, server, fixture }) {
      expect(answer(outcome).text).toBe('recovered');
      expect(server.requests).toHaveLength(2);
      expect(outcome.retries).toHaveLength(1);
      const [retry] = outcome.retries;
      expect(retry!.attempt).toBe(1);
      expect(retry!.error.code).toBe(code);
      expect(retry!.error.retryable).toBe(true);
      expect(retry!.error.status).toBe(fixture.status);
      checkWait(retry!.delayMs);
      extra?.(retry!.error);
    },
  };
}

/** Computed backoff for the first retry: 500 ms minus up to 25% jitter; never zero, never negative. */
const firstBackoff = (delayMs: number) => {
  expect(delayMs).toBeGreaterThanOrEqual(375);
  expect(delayMs).toBeLessThanOrEqual(500);
};

/** The malformed arguments reach the tool pipeline raw, which refuses them without running the tool or asking approval. */
async function refusedByPipeline(response: ModelResponse, id: string, name: string, raw: string): Promise<void> {
  expect(response.toolCalls).toEqual([{ id, name, arguments: raw }]);
  expect(() => JSON.parse(raw)).toThrow(SyntaxError);
  const harness = createHarness();
  const body = vi.fn();
  const approver = vi.fn(async () => ({ decision: 'allow' as const }));
  harness.tools.register(defineTool({ name, description: name, tier: 'write', parameters: { type: 'object', properties: { path: { type: 'string' } } }, execute: body }));
  // Every call asks for approval: a call that reached approval would reach the approver.
  await harness.use(
    definePlugin({
      name: 'ask-always',
      setup(ctx) {
        ctx.guards.add('ask-always', () => ({ decision: 'ask' }));
        ctx.approval.setResponder(approver);
      },
    }),
  );
  const [result] = await harness.executeToolCalls(response.toolCalls);
  expect(result!.ok).toBe(false);
  expect(result!.ok === false && result!.error.code).toBe('INVALID_ARGUMENTS');
  expect(result!.content).toMatch(/not valid JSON/);
  expect(body).not.toHaveBeenCalled();
  expect(approver).not.toHaveBeenCalled();
  await harness.close();
}

const EXPECTATIONS: Readonly<Record<string, Expectation>> = {
  text_stream_basic: textAnswer('The build passes on Node 22.', ({ kind, outcome }, response) => {
    if (kind === 'stream') expect(textDeltas(outcome)).toEqual(['The build ', 'passes on ', 'Node 22.']);
    expect(response.usage).toBeUndefined();
    expect('usage' in response).toBe(false);
  }),

  tool_call_single_fragmented: {
    check({ outcome, kind }) {
      const response = answer(outcome);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.toolCalls).toEqual([{ id: 'call_fx02a', name: 'read_file', arguments: '{"path": "src/index.ts"}' }]);
      expect(JSON.parse(response.toolCalls[0]!.arguments as string)).toEqual({ path: 'src/index.ts' });
      if (kind === 'stream') {
        // Calls reach the caller only in the finish event, after the stream completed.
        const deltas = outcome.events.filter((event) => event.type === 'tool-call-delta');
        expect(deltas.map((event) => event.argumentsDelta).join('')).toBe('{"path": "src/index.ts"}');
        expect(outcome.events.at(-1)?.type).toBe('finish');
      }
    },
  },

  parallel_tool_calls_sequential: {
    then: [streamedAnswer({ text: 'Both read.' })],
    async check({ outcome, model, server }) {
      const response = answer(outcome);
      expect(response.toolCalls).toEqual([
        { id: 'call_fx03a', name: 'list_dir', arguments: '{"path":"src"}' },
        { id: 'call_fx03b', name: 'read_file', arguments: '{"path":"package.json"}' },
      ]);
      const history: Message[] = [
        ...REQUEST.messages,
        { role: 'assistant', content: response.text, toolCalls: response.toolCalls },
        { role: 'tool', toolCallId: 'call_fx03a', toolName: 'list_dir', content: 'index.ts' },
        { role: 'tool', toolCallId: 'call_fx03b', toolName: 'read_file', content: 'no such file', isError: true },
      ];
      expect((await model.complete({ messages: history, tools: TOOLS })).text).toBe('Both read.');
      const sent = (server.requests[1]!.json as { messages: unknown[] }).messages.slice(2);
      expect(sent).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_fx03a', type: 'function', function: { name: 'list_dir', arguments: '{"path":"src"}' } },
            { id: 'call_fx03b', type: 'function', function: { name: 'read_file', arguments: '{"path":"package.json"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_fx03a', content: 'index.ts' },
        { role: 'tool', tool_call_id: 'call_fx03b', content: 'Error: no such file' },
      ]);
    },
  },

  usage_final_chunk_include_usage: textAnswer('Done.', ({ server }, response) => {
    expect(response.usage).toEqual({ inputTokens: 812, outputTokens: 3, cachedInputTokens: 768 });
    expect(response.usage!.inputTokens + response.usage!.outputTokens).toBe(815);
    expect(server.requests[0]!.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  }),

  usage_absent_despite_include_usage: textAnswer('ok', (_context, response) => {
    expect(response.usage).toBeUndefined();
  }),

  openrouter_keepalive_comments: textAnswer('Hi there', ({ kind, outcome }) => {
    if (kind === 'stream') expect(textDeltas(outcome)).toEqual(['Hi', ' there']);
  }),

  deepseek_keepalive_comments_stream: textAnswer('Ready.', (_context, response) => {
    // `reasoning_content: null` is no reasoning at all.
    expect(response.reasoning).toBeUndefined();
  }),

  deepseek_blank_lines_before_json_nonstream: textAnswer('Pong.', (_context, response) => {
    expect(response.usage).toEqual({ inputTokens: 9, outputTokens: 2 });
  }),

  azure_prompt_filter_first_chunk_empty_choices: textAnswer('Sure.'),

  finish_content_filter: {
    check({ outcome, server }) {
      const response = answer(outcome);
      expect(response.finishReason).toBe('content_filter');
      expect(response.text).toBe('Here is how to ');
      expect(response.toolCalls).toEqual([]);
      expect(server.requests).toHaveLength(1);
      expect(outcome.retries).toEqual([]);
    },
  },

  finish_length_mid_tool_call: {
    check({ outcome, server, kind }) {
      const response = answer(outcome);
      expect(response.finishReason).toBe('length');
      // The half-written write_file call is dropped: it can never run, and never enters the history.
      expect(response.toolCalls).toEqual([]);
      if (kind === 'stream') expect(outcome.events.some((event) => event.type === 'tool-call-delta' && event.name === 'write_file')).toBe(true);
      expect(server.requests).toHaveLength(1);
    },
  },

  deepseek_reasoning_content_then_tool_call: {
    then: [streamedAnswer({ text: 'Read.' }), streamedAnswer({ text: 'Read.' })],
    async check({ outcome, kind, server }) {
      const response = answer(outcome);
      expect(response.reasoning).toBe('The user wants the config; read it first.');
      expect(response.text).toBe('');
      expect(response.toolCalls).toEqual([{ id: 'call_fx15a', name: 'read_file', arguments: '{"path":"config/app.json"}' }]);
      if (kind === 'stream') {
        const reasoning = outcome.events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.text] : []));
        expect(reasoning).toEqual(['The user wants the config; ', 'read it first.']);
        expect(textDeltas(outcome)).toEqual([]);
      }
      // Round trip: the stored assistant turn goes back with its reasoning (DeepSeek requires it),
      // or without it for a provider configured not to take it.
      const history: Message[] = [
        ...REQUEST.messages,
        { role: 'assistant', content: response.text, toolCalls: response.toolCalls, reasoning: response.reasoning! },
        { role: 'tool', toolCallId: 'call_fx15a', toolName: 'read_file', content: '{}' },
      ];
      for (const sendReasoning of ['when-present', 'never'] as const) {
        const { model } = recordingModel(server, { sendReasoning });
        await model.complete({ messages: history, tools: TOOLS });
      }
      const assistantSent = (index: number) => (server.requests[index]!.json as { messages: Record<string, unknown>[] }).messages[2];
      expect(assistantSent(1)).toMatchObject({ role: 'assistant', reasoning_content: 'The user wants the config; read it first.', tool_calls: [{ id: 'call_fx15a' }] });
      expect(assistantSent(2)).not.toHaveProperty('reasoning_content');
    },
  },

  deepseek_missing_reasoning_content_400: terminal('BAD_REQUEST', (error) => {
    expect(error.providerType).toBe('invalid_request_error');
  }),

  ollama_tool_calls_without_index: {
    check({ outcome }) {
      const response = answer(outcome);
      expect(response.toolCalls).toEqual([
        { id: 'call_fx17a', name: 'list_dir', arguments: '{"path":"."}' },
        { id: 'call_fx17b', name: 'read_file', arguments: '{"path":"go.mod"}' },
      ]);
    },
  },

  arguments_as_object_nonstream: {
    then: [streamedAnswer({ text: 'ok' })],
    async check({ outcome, model, server }) {
      const response = answer(outcome);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.toolCalls).toEqual([{ id: 'call_1_0', name: 'read_file', arguments: '{"path":"Cargo.toml"}' }]);
      const history: Message[] = [
        ...REQUEST.messages,
        { role: 'assistant', content: '', toolCalls: response.toolCalls },
        { role: 'tool', toolCallId: response.toolCalls[0]!.id, toolName: 'read_file', content: '[package]' },
      ];
      await model.complete({ messages: history, tools: TOOLS });
      const [assistant, tool] = (server.requests[1]!.json as { messages: Record<string, unknown>[] }).messages.slice(2);
      expect(assistant).toMatchObject({ tool_calls: [{ id: 'call_1_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"Cargo.toml"}' } }] });
      expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_1_0', content: '[package]' });
    },
  },

  arguments_as_object_in_stream_delta: {
    check({ outcome }) {
      const response = answer(outcome);
      expect(response.toolCalls).toEqual([{ id: 'call_fx20a', name: 'list_dir', arguments: '{"path":"docs","depth":1}' }]);
      expect(JSON.parse(response.toolCalls[0]!.arguments as string)).toEqual({ path: 'docs', depth: 1 });
    },
  },

  missing_or_empty_tool_call_id: {
    async check({ outcome, model, server, fixture }) {
      const response = answer(outcome);
      expect(response.toolCalls).toEqual([
        { id: 'call_1_0', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_1_1', name: 'read_file', arguments: '{"path":"b.txt"}' },
      ]);
      // Stable: the same answer at the same point of the conversation gets the same ids.
      server.script(fixtureResponse(fixture));
      expect((await model.complete(REQUEST)).toolCalls.map((call) => call.id)).toEqual(['call_1_0', 'call_1_1']);
    },
  },

  tool_calls_with_finish_stop: {
    check({ outcome }) {
      const response = answer(outcome);
      expect(response.toolCalls).toEqual([{ id: 'call_fx24a', name: 'list_dir', arguments: '{"path":"tests"}' }]);
      // Presence of calls decides; the finish reason is made to agree with them.
      expect(response.finishReason).toBe('tool_calls');
    },
  },

  malformed_json_arguments_truncated: {
    async check({ outcome }) {
      const response = answer(outcome);
      expect(response.finishReason).toBe('tool_calls');
      await refusedByPipeline(response, 'call_fx26a', 'write_file', '{"path":"src/app.ts","content":"export {}"');
    },
  },

  python_style_dict_arguments: {
    async check({ outcome }) {
      await refusedByPipeline(answer(outcome), 'call_fx27a', 'read_file', "{'path': 'setup.cfg',}");
    },
  },

  stream_cut_without_finish_or_done: {
    options: { maxRetries: 1 },
    then: [RECOVERED],
    fakeTimers: true,
    check({ outcome, kind, server }) {
      if (kind === 'complete') {
        // A failed attempt, retried: the partial text and tool call never come back as an answer.
        expect(answer(outcome).text).toBe('recovered');
        expect(outcome.retries).toHaveLength(1);
        expect(outcome.retries[0]!.error.code).toBe('INCOMPLETE_STREAM');
        expect(server.requests).toHaveLength(2);
      } else {
        // The consumer already saw "Let me check ": the failure cannot be taken back, so it is thrown.
        const error = failure(outcome, 'INCOMPLETE_STREAM');
        expect(error.retryable).toBe(true);
        expect(textDeltas(outcome)).toEqual(['Let me check ']);
        expect(outcome.events.some((event) => event.type === 'finish')).toBe(false);
        expect(server.requests).toHaveLength(1);
      }
    },
  },

  finish_present_but_no_done_sentinel: textAnswer('All set.'),

  json_error_when_stream_requested: terminal('BAD_REQUEST', (error) => {
    expect(error.providerType).toBe('invalid_request_error');
    expect(error.param).toBe('tools[0].function.parameters');
    expect(error.providerCode).toBe('invalid_value');
  }),

  http_400_context_length_exceeded: terminal('CONTEXT_LENGTH_EXCEEDED', (error) => {
    expect(error.providerCode).toBe('context_length_exceeded');
    expect(error.message).toMatch(/shorten/i);
  }),

  http_401_invalid_api_key: terminal('AUTHENTICATION', (error) => {
    expect(error.message).toContain('OPENAI_API_KEY');
  }),

  http_404_model_not_found: terminal('NOT_FOUND', (error, { server }) => {
    expect(error.message).toContain('"fixture-model-1"');
    expect(error.message).toContain(`${server.baseURL}/chat/completions`);
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
  }),

  http_408_request_timeout: retried('PROVIDER_UNAVAILABLE', firstBackoff),

  http_409_conflict: retried('PROVIDER_UNAVAILABLE', firstBackoff),

  http_429_rate_limited_retry_after_seconds: retried('RATE_LIMITED', (delayMs) => expect(delayMs).toBe(7_000), (error) => {
    expect(error.retryAfterMs).toBe(7_000);
  }),

  http_429_insufficient_quota: terminal('QUOTA_EXCEEDED'),

  http_429_ratelimit_headers_negative: retried('RATE_LIMITED', firstBackoff, (error) => {
    expect(error.retryAfterMs).toBeUndefined();
  }),

  http_502_html_from_proxy: retried('PROVIDER_UNAVAILABLE', firstBackoff, (error) => {
    expect(error.bodyExcerpt).toContain('Bad Gateway');
    expect(error.bodyExcerpt!.length).toBeLessThanOrEqual(500);
    expect(error.providerMessage).toBeUndefined();
  }),

  http_503_overloaded_json: retried('PROVIDER_UNAVAILABLE', (delayMs) => expect(delayMs).toBe(2_000), (error) => {
    expect(error.providerMessage).toBe('All replicas are busy; try again shortly.');
    expect(error.requestId).toBe('req_fixture');
  }),

  refusal_delta: {
    check({ outcome }) {
      const response = answer(outcome);
      expect(response.refusal).toBe("I can't help with that request.");
      expect(response.text).toBe('');
      expect(response.toolCalls).toEqual([]);
      expect(response.finishReason).toBe('stop');
    },
  },
};

describe('every fixture case has an expectation', () => {
  it('covers all 34 cases, and nothing else', () => {
    expect(fixtureCases).toHaveLength(34);
    expect(Object.keys(EXPECTATIONS).sort()).toEqual(fixtureCases.map((fixture) => fixture.name).sort());
  });
});

describe.each(fixtureCases.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
  let server: LoopbackServer;
  useLoopbackServer((started) => (server = started));

  const expectation = EXPECTATIONS[fixture.name]!;
  // A stream that ends with [DONE] is held open afterwards: the client must stop at [DONE], not wait for EOF.
  const holdOpen = isStreamCase(fixture) && fixture.body_or_sse_lines.includes('data: [DONE]');

  describe.each(DELIVERIES.map((entry) => [entry.label, entry.delivery] as const))('%s', (_label, delivery) => {
    it.each(['complete', 'stream'] as const)('%s()', async (kind) => {
      if (expectation.fakeTimers) vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      server.script(fixtureResponse(fixture, { ...delivery, holdOpen }), ...(expectation.then ?? []));
      const { model, retries } = recordingModel(server, expectation.options, { advanceFakeTimers: expectation.fakeTimers === true });
      const outcome = await runCall(kind, model, retries);
      vi.useRealTimers();
      await expectation.check({ kind, outcome, server, model, fixture });
    });
  });
});
