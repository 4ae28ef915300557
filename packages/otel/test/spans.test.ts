import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createAgent, createHarness, definePlugin, fallbackModel, type LanguageModel, type ToolCall } from '@weir/core';
import { diffSnapshots, snapshotHarness } from '@weir/core/testing';
import { createScriptedModel } from '@weir/llm-mock';
import { otel } from '@weir/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventNames, everything, isChildOf, memoryTracing, SECRET, tracedHarness } from './support.js';

// The caller's active context reaches the plugin through the context manager an SDK registers.
beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());

const policy = definePlugin({
  name: 'policy',
  setup(ctx) {
    ctx.guards.add('writes', (call) => (call.tier === 'write' ? { decision: 'deny', reason: `no writes (${JSON.stringify(call.arguments)})` } : undefined));
    ctx.hooks.prepareExecution.tap('blocker', (preparation) =>
      preparation.status === 'ready' && (preparation.arguments as { text?: string }).text === 'block me' ? { action: 'block', reason: 'blocked by test' } : undefined,
    );
  },
});

const asking = (waitMs: number) =>
  definePlugin({
    name: 'asking',
    setup(ctx) {
      ctx.guards.add('ask-writes', (call) => (call.tier === 'write' ? { decision: 'ask', reason: 'writes need a yes' } : undefined));
      ctx.approval.setResponder(async () => {
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        return { decision: 'allow' };
      });
    },
  });

const code = (attributes: Record<string, unknown>) => attributes['error.type'];
const hrMs = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;

describe('execute_tool spans: one per call, with where its time went', () => {
  it('ok: names, kind, GenAI attributes, weir tier and attempts, a span event per piece, no error', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result.ok).toBe(true);
    const span = sdk.named('execute_tool echo');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
      'weir.tool.tier': 'read-only',
      'weir.tool.attempts': 1,
    });
    expect(typeof span.attributes['weir.call.key']).toBe('string');
    expect(code(span.attributes)).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(eventNames(span)).toEqual(['weir.validate', 'weir.attempt', 'weir.execute', 'weir.createSuccessResult']);
    expect(span.events.find((event) => event.name === 'weir.attempt')?.attributes).toMatchObject({ 'weir.attempt': 1, 'weir.attempt.ok': true });
  });

  it('DENIED and BLOCKED: error.type is the code, status ERROR, the guard verdict is an event', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    await harness.use(policy);
    const denied = await harness.executeToolCall({ id: 'd1', name: 'write_note', arguments: { text: SECRET } });
    const blocked = await harness.executeToolCall({ id: 'b1', name: 'echo', arguments: { text: 'block me' } });
    expect(denied.ok || denied.error.code).toBe('DENIED');
    expect(blocked.ok || blocked.error.code).toBe('BLOCKED');
    const deniedSpan = sdk.named('execute_tool write_note');
    expect(code(deniedSpan.attributes)).toBe('DENIED');
    expect(deniedSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'DENIED' });
    expect(deniedSpan.events.find((event) => event.name === 'weir.guard')?.attributes).toMatchObject({ 'weir.guard.name': 'writes', 'weir.guard.decision': 'deny' });
    const blockedSpan = sdk.named('execute_tool echo');
    expect(code(blockedSpan.attributes)).toBe('BLOCKED');
    expect(eventNames(blockedSpan)).toContain('weir.prepareExecution');
    expect(eventNames(blockedSpan)).not.toContain('weir.execute');
  });

  it('TIMEOUT and ABORTED: the code, and the execute piece with its duration', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const timedOut = await harness.executeToolCall({ id: 't1', name: 'slow', arguments: { ms: 2_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const aborted = await harness.executeToolCall({ id: 'a1', name: 'wait', arguments: { ms: 2_000 } }, { signal: controller.signal });
    expect(timedOut.ok || timedOut.error.code).toBe('TIMEOUT');
    expect(aborted.ok || aborted.error.code).toBe('ABORTED');
    const slow = sdk.named('execute_tool slow');
    expect(code(slow.attributes)).toBe('TIMEOUT');
    const execute = slow.events.find((event) => event.name === 'weir.execute');
    expect(execute?.attributes?.['weir.duration_ms']).toBeGreaterThanOrEqual(45);
    expect(code(sdk.named('execute_tool wait').attributes)).toBe('ABORTED');
  });

  it('a retried call: one event per attempt, failures with their error type, attempts on the span', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const result = await harness.executeToolCall({ id: 'r1', name: 'flaky', arguments: {} });
    expect(result.ok).toBe(true);
    const span = sdk.named('execute_tool flaky');
    const attempts = span.events.filter((event) => event.name === 'weir.attempt').map((event) => event.attributes);
    expect(attempts).toEqual([
      expect.objectContaining({ 'weir.attempt': 1, 'weir.attempt.ok': false, 'error.type': 'Error' }),
      expect.objectContaining({ 'weir.attempt': 2, 'weir.attempt.ok': false, 'error.type': 'Error' }),
      expect.objectContaining({ 'weir.attempt': 3, 'weir.attempt.ok': true }),
    ]);
    expect(span.attributes['weir.tool.attempts']).toBe(3);
    expect(code(span.attributes)).toBeUndefined();
  });

  it('an approval that waited: asked and answered events, the wait on the span', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    await harness.use(asking(60));
    const result = await harness.executeToolCall({ id: 'w1', name: 'write_note', arguments: { text: 'x' } });
    expect(result.ok).toBe(true);
    const span = sdk.named('execute_tool write_note');
    expect(eventNames(span)).toEqual(['weir.validate', 'weir.guard', 'weir.guards', 'weir.approval.asked', 'weir.approval.answered', 'weir.approval', 'weir.attempt', 'weir.execute', 'weir.createSuccessResult']);
    expect(span.events.find((event) => event.name === 'weir.approval.asked')?.attributes).toEqual({ 'weir.approval.asked_by': 'ask-writes' });
    expect(span.attributes['weir.approval.decision']).toBe('allow');
    expect(span.attributes['weir.approval.wait_ms']).toBeGreaterThanOrEqual(50);
    const asked = span.events.find((event) => event.name === 'weir.approval.asked')!.time;
    const answered = span.events.find((event) => event.name === 'weir.approval.answered')!.time;
    const gapMs = (answered[0] - asked[0]) * 1000 + (answered[1] - asked[1]) / 1e6;
    expect(gapMs).toBeGreaterThanOrEqual(50);
  });

  it('a batch in parallel: one span per call, children of the caller\'s active span, overlapping, started in call order', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const parent = sdk.tracer.startSpan('request');
    const calls: ToolCall[] = [1, 2, 3].map((n) => ({ id: `p${n}`, name: 'wait', arguments: { ms: 40 } }));
    const started = performance.now();
    const results = await context.with(trace.setSpan(context.active(), parent), () => harness.executeToolCalls(calls, { concurrency: 3 }));
    const elapsed = performance.now() - started;
    parent.end();
    expect(results.every((result) => result.ok)).toBe(true);
    const spans = sdk.spans().filter((span) => span.name === 'execute_tool wait');
    expect(spans.map((span) => span.attributes['gen_ai.tool.call.id']).sort()).toEqual(['p1', 'p2', 'p3']);
    const request = sdk.named('request');
    for (const span of spans) expect(isChildOf(span, request)).toBe(true);
    // In parallel: the three 40 ms calls took well under 120 ms together, and their spans overlap.
    expect(elapsed).toBeLessThan(110);
    const byStart = [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(byStart.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['p1', 'p2', 'p3']);
    const endOfFirst = byStart[0]!.endTime;
    const startOfLast = byStart[2]!.startTime;
    expect(startOfLast[0] < endOfFirst[0] || (startOfLast[0] === endOfFirst[0] && startOfLast[1] < endOfFirst[1])).toBe(true);
  });

  it('the body runs inside its span: a span the tool makes is a child of execute_tool', async () => {
    const sdk = memoryTracing();
    const harness = createHarness();
    harness.tools.register({
      ...(await import('@weir/core')).defineTool({
        name: 'fetchy',
        description: 'Makes a span of its own.',
        tier: 'read-only',
        parameters: { type: 'object', properties: {} },
        execute: async () => {
          await Promise.resolve();
          sdk.tracer.startSpan('inner work').end();
          return 'ok';
        },
      }),
    });
    await harness.use(otel({ tracer: sdk.tracer }));
    await harness.executeToolCall({ id: 'f1', name: 'fetchy', arguments: {} });
    expect(isChildOf(sdk.named('inner work'), sdk.named('execute_tool fetchy'))).toBe(true);
  });
});

describe('agent turn spans: invoke_agent, chat per model call, the tool spans under the step that asked', () => {
  it("a Claude call names its provider and reports the cache's reads and writes", async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer, agentName: 'helper' });
    const usage = { inputTokens: 1_500, outputTokens: 20, cacheReadTokens: 1_200, cachedInputTokens: 1_200, cacheWriteTokens: 250 };
    const model = createScriptedModel([{ text: 'Cached.', usage }], { id: 'anthropic:claude-sonnet-4-5', provider: 'anthropic' });
    await createAgent({ model, harness }).turn('hi');
    expect(sdk.named('chat claude-sonnet-4-5').attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.usage.input_tokens': 1_500,
      'gen_ai.usage.cache_read.input_tokens': 1_200,
      'gen_ai.usage.cache_creation.input_tokens': 250,
    });
  });

  it('a whole turn with two steps, parented to the caller\'s active span', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer, agentName: 'helper' });
    const model = createScriptedModel(
      [
        {
          toolCalls: [
            { id: 'e1', name: 'echo', arguments: { text: 'one' } },
            { id: 'e2', name: 'echo', arguments: { text: 'two' } },
          ],
          usage: { inputTokens: 100, outputTokens: 10 },
        },
        { text: 'All done.', usage: { inputTokens: 150, outputTokens: 5, cachedInputTokens: 80 } },
      ],
      { id: 'mock:scripted-1' },
    );
    const agent = createAgent({ model, harness });
    const request = sdk.tracer.startSpan('http request');
    const result = await context.with(trace.setSpan(context.active(), request), () => agent.turn('please echo'));
    request.end();
    expect(result.text).toBe('All done.');
    model.assertAllUsed();

    const turn = sdk.named('invoke_agent helper');
    expect(isChildOf(turn, sdk.named('http request'))).toBe(true);
    expect(turn.kind).toBe(SpanKind.INTERNAL);
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'helper',
      'gen_ai.provider.name': 'mock',
      'gen_ai.request.model': 'scripted-1',
      'gen_ai.usage.input_tokens': 250,
      'gen_ai.usage.output_tokens': 15,
      'weir.turn.stop_reason': 'stop',
      'weir.turn.steps': 2,
    });

    const chats = sdk.spans().filter((span) => span.name === 'chat scripted-1');
    expect(chats).toHaveLength(2);
    const [first, second] = [...chats].sort((a, b) => (a.attributes['weir.step'] as number) - (b.attributes['weir.step'] as number));
    for (const chat of [first!, second!]) {
      expect(isChildOf(chat, turn)).toBe(true);
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes['gen_ai.operation.name']).toBe('chat');
    }
    expect(first!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 10 });
    expect(second!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.usage.cache_read.input_tokens': 80 });

    const tools = sdk.spans().filter((span) => span.name === 'execute_tool echo');
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['e1', 'e2']);
    for (const tool of tools) {
      expect(isChildOf(tool, first!)).toBe(true);
      expect(tool.attributes['weir.run.id']).toBe(turn.attributes['weir.run.id']);
    }
  });

  it("a provider's own span, started inside the model call or its stream, is a child of the chat span", async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    // What a provider SDK's instrumentation does: a span in the active context, after an await.
    const providerSpan = async (name: string) => {
      await new Promise((resolve) => setImmediate(resolve));
      sdk.tracer.startSpan(name).end();
    };
    const model: LanguageModel = {
      id: 'mock:instrumented',
      async complete() {
        await providerSpan('POST /v1/complete');
        return { text: 'Whole.', toolCalls: [], finishReason: 'stop' };
      },
      async *stream() {
        await providerSpan('POST /v1/stream');
        yield { type: 'text-delta', text: 'Str' };
        await providerSpan('stream chunk');
        yield { type: 'finish', response: { text: 'Streamed.', toolCalls: [], finishReason: 'stop' } };
      },
    };
    const agent = createAgent({ model, harness });
    await agent.turn('whole');
    await agent.turn('streamed', { stream: true, onEvent: () => undefined });
    const chats = sdk.spans().filter((span) => span.name === 'chat instrumented');
    expect(chats).toHaveLength(2);
    const [whole, streamed] = chats;
    expect(isChildOf(sdk.named('POST /v1/complete'), whole!)).toBe(true);
    expect(isChildOf(sdk.named('POST /v1/stream'), streamed!)).toBe(true);
    expect(isChildOf(sdk.named('stream chunk'), streamed!)).toBe(true);
    // Around the call only: the turn's own context is back once the model answered.
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it('a failing model call: the chat span and the turn carry error.type, the turn rejects as before', async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const model = createScriptedModel([() => Promise.reject(new Error('provider down'))]);
    await expect(createAgent({ model, harness }).turn('hi')).rejects.toMatchObject({ code: 'MODEL_CALL_FAILED' });
    expect(code(sdk.named('chat scripted').attributes)).toBe('MODEL_CALL_FAILED');
    const turn = sdk.named('invoke_agent weir');
    expect(code(turn.attributes)).toBe('MODEL_CALL_FAILED');
    expect(turn.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('chat spans name the model each call went to', () => {
  it("a step's own model (prepareStep) names its chat span; the one a fallback chose is gen_ai.response.model", async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const main = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }], { id: 'openai:main-model' });
    const down = createScriptedModel([() => Promise.reject(Object.assign(new Error('overloaded'), { retryable: true }))], { id: 'openai:small-model' });
    const spare = createScriptedModel([{ text: 'done' }], { id: 'other:spare-model' });
    const small = fallbackModel([down, spare], { shouldFallback: () => true, id: 'openai:small-model' });
    const agent = createAgent({ model: main, harness, prepareStep: ({ step }) => (step === 2 ? { model: small } : undefined) });
    await agent.turn('hi');
    const chats = sdk.spans().filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => [span.name, span.attributes['gen_ai.request.model'], span.attributes['gen_ai.provider.name'], span.attributes['gen_ai.response.model']])).toEqual([
      ['chat main-model', 'main-model', 'openai', undefined],
      ['chat small-model', 'small-model', 'openai', 'spare-model'],
    ]);
    // The turn still names the agent's model.
    expect(sdk.named('invoke_agent weir').attributes['gen_ai.request.model']).toBe('main-model');
  });

  it("a compaction's summary call is a chat span of its own under the turn, with its model and usage", async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    const echo = (text: string, inputTokens: number) => ({ toolCalls: [{ name: 'echo', arguments: { text } }], usage: { inputTokens, outputTokens: 5 } });
    // 900 input tokens reported at step 2: step 3 starts by compacting (limit 800).
    const model = createScriptedModel([echo('a', 400), echo('b', 900), { text: 'done' }], { id: 'openai:main-model' });
    const summarizer = createScriptedModel([{ text: 'a and b were echoed.', usage: { inputTokens: 60, outputTokens: 12 } }], { id: 'openai:summary-model' });
    const agent = createAgent({ model, harness, compact: { maxTokens: 800, keepSteps: 1, model: summarizer } });
    expect((await agent.turn('echo a, then b')).stopReason).toBe('stop');
    summarizer.assertAllUsed();
    const turn = sdk.named('invoke_agent weir');
    const summary = sdk.named('chat summary-model');
    expect(isChildOf(summary, turn)).toBe(true);
    expect(summary.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'summary-model',
      'gen_ai.usage.input_tokens': 60,
      'gen_ai.usage.output_tokens': 12,
      'weir.step': 3,
      'weir.compaction.replaced': 3,
    });
    // It ended before step 3's own call began.
    const third = sdk.spans().find((span) => span.name === 'chat main-model' && span.attributes['weir.step'] === 3)!;
    expect(hrMs(summary.endTime)).toBeLessThanOrEqual(hrMs(third.startTime));
    expect(hrMs(summary.startTime)).toBeLessThanOrEqual(hrMs(summary.endTime));
  });
});

describe('captureContent', () => {
  /** Every scenario, with the secret in arguments, results, messages and reasons. */
  async function runEverything(captureContent: boolean) {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer, captureContent });
    await harness.use(policy);
    await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: SECRET } });
    await harness.executeToolCall({ id: 'c2', name: 'write_note', arguments: { text: SECRET } });
    await harness.executeToolCall({ id: 'c3', name: 'echo', arguments: `{"text": 1, "note": "${SECRET}"}` });
    const model = createScriptedModel([{ toolCalls: [{ id: 'm1', name: 'echo', arguments: { text: SECRET } }] }, { text: `the secret is ${SECRET}` }]);
    await createAgent({ model, harness, system: `never say ${SECRET}` }).turn(`tell me ${SECRET}`);
    return sdk.spans();
  }

  it('off (the default): no argument, result, message or reason anywhere in any span', async () => {
    const spans = await runEverything(false);
    expect(spans.length).toBeGreaterThanOrEqual(7);
    for (const span of spans) expect(everything(span)).not.toContain(SECRET);
    for (const span of spans) {
      expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
      expect(span.attributes['gen_ai.input.messages']).toBeUndefined();
      expect(span.attributes['gen_ai.output.messages']).toBeUndefined();
    }
  });

  it('on: arguments and results on the tool spans, messages on the model spans', async () => {
    const spans = await runEverything(true);
    const echo = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'c1')!;
    expect(echo.attributes['gen_ai.tool.call.arguments']).toBe(JSON.stringify({ text: SECRET }));
    expect(echo.attributes['gen_ai.tool.call.result']).toBe(`echo: ${SECRET}`);
    const chat = spans.find((span) => span.name.startsWith('chat ') && span.attributes['weir.step'] === 2)!;
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)[0]).toEqual({ role: 'system', parts: [{ type: 'text', content: `never say ${SECRET}` }] });
    expect(chat.attributes['gen_ai.output.messages']).toContain(`the secret is ${SECRET}`);
    const denied = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'c2')!;
    expect(denied.status.message).toContain(SECRET);
  });
});

describe('loading and unloading', () => {
  it('unloading leaves the harness exactly as before, and ends a span still open', async () => {
    const sdk = memoryTracing();
    const harness = createHarness();
    for (const tool of (await import('./support.js')).scenarioTools()) harness.tools.register(tool);
    const before = snapshotHarness(harness);
    const unload = await harness.use(otel({ tracer: sdk.tracer }));
    expect(diffSnapshots(before, snapshotHarness(harness))).not.toEqual([]);
    const running = harness.executeToolCall({ id: 'u1', name: 'wait', arguments: { ms: 80 } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await unload();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
    const open = sdk.named('execute_tool wait');
    expect(open.attributes['weir.unloaded']).toBe(true);
    expect((await running).ok).toBe(true);
    await harness.executeToolCall({ id: 'u2', name: 'echo', arguments: { text: 'after' } });
    expect(sdk.spans()).toHaveLength(1);
  });

  it('without an SDK registered, the API is a no-op: calls and turns run, nothing is recorded', async () => {
    const { harness } = await tracedHarness({});
    const result = await harness.executeToolCall({ id: 'n1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: true, content: 'echo: hi' });
    const turn = await createAgent({ model: createScriptedModel([{ text: 'fine' }]), harness }).turn('hi');
    expect(turn.text).toBe('fine');
  });

  it('refuses bad options with a clear error', () => {
    expect(() => otel({ captureContent: 'yes' as unknown as boolean })).toThrow(/captureContent must be a boolean/);
    expect(() => otel({ tracer: {} as never })).toThrow(/tracer must be an OpenTelemetry Tracer/);
    expect(() => otel({ agentName: '' })).toThrow(/agentName/);
  });
});
