import { createAgent, createHarness, type Harness } from '@weir/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AiSdkModelError, fromAiSdk } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let kit: AiSdkKit;
let server: ReplayServer;
beforeAll(async () => {
  kit = await aiSdkKit();
  server = await startReplayServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => server.reset());

const json = (status: number, body: unknown, headers?: Record<string, string>) => ({ status, contentType: 'application/json', body: Buffer.from(JSON.stringify(body)), ...(headers ? { headers } : {}) });
const answer = (text: string) => json(200, { id: 'msg', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 2 } });
const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

function claude(fetch?: typeof globalThis.fetch) {
  return kit.anthropic.createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test-key', ...(fetch ? { fetch } : {}) })('claude-sonnet-4-5');
}

describe(`fromAiSdk calls (AI SDK ${AI_SDK_MAJOR}, @ai-sdk/anthropic)`, () => {
  it('is a weir model named after the provider, speaking the spec of its major', () => {
    const model = fromAiSdk(claude());
    expect(model).toMatchObject({ id: 'anthropic.messages:claude-sonnet-4-5', provider: 'anthropic.messages' });
    expect(claude().specificationVersion).toBe(kit.spec);
  });

  it('a retryable APICallError (529, 429 with retry-after) is retried by weir; the answer follows', async () => {
    server.queue(json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), json(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, { 'retry-after': '0' }), answer('third time'));
    const retries: unknown[] = [];
    const model = fromAiSdk(claude(), { maxRetries: 2, onRetry: ({ attempt, delayMs, error }) => retries.push({ attempt, delayMs: delayMs === 0 ? 0 : 'backoff', message: error.message }) });
    const response = await model.complete(request);
    expect(response.text).toBe('third time');
    expect(server.requests).toHaveLength(3);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 'backoff', message: 'Overloaded' },
      { attempt: 2, delayMs: 0, message: 'slow down' },
    ]);
  });

  it("a 400 is not retried: the call fails with the provider's message", async () => {
    server.queue(json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: roles must alternate' } }));
    const failure = await fromAiSdk(claude()).complete(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AiSdkModelError);
    expect(failure).toMatchObject({ message: 'anthropic.messages: messages: roles must alternate', status: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('retries run out: the last error fails the call', async () => {
    server.queue(json(503, { type: 'error', error: { type: 'api_error', message: 'down' } }), json(503, { type: 'error', error: { type: 'api_error', message: 'still down' } }));
    const failure = await fromAiSdk(claude(), { maxRetries: 1, maxRetryDelayMs: 60_000 }).complete(request).catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'anthropic.messages: still down', status: 503, retryable: true });
  });

  it("an abort reaches the provider's fetch, and the call rejects with the signal's reason", async () => {
    const signals: AbortSignal[] = [];
    const controller = new AbortController();
    const fetch: typeof globalThis.fetch = (input, init) => {
      signals.push(init!.signal!);
      controller.abort(new Error('stop now'));
      return globalThis.fetch(input, init);
    };
    server.queue(answer('never read'));
    await expect(fromAiSdk(claude(fetch)).complete({ ...request, signal: controller.signal })).rejects.toThrow('stop now');
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it('request options reach the wire: max output tokens, temperature, tool choice, reasoning; an unsupported cache hint is a warning', async () => {
    server.queue(answer('ok'));
    const response = await fromAiSdk(claude()).complete({
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }],
      tools: [{ name: 'look', description: 'Looks.', parameters: { type: 'object', properties: {} } }],
      options: { maxOutputTokens: 900, temperature: 0.5, toolChoice: { name: 'look' }, reasoning: 'off', cache: { breakpoints: ['system'] } },
    });
    const body = server.requests[0]!.json;
    expect(body).toMatchObject({ max_tokens: 900, temperature: 0.5, tool_choice: { type: 'tool', name: 'look' }, system: [{ type: 'text', text: 'Be brief.' }] });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['look']);
    expect(response.warnings).toContainEqual(expect.stringMatching(/^cache .* is not passed on/));
  });

  it('images in a user message and in a tool result go to the provider as images', async () => {
    server.queue(answer('a pixel'));
    await fromAiSdk(claude()).complete({
      messages: [
        { role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, { type: 'image', data: PIXEL, mediaType: 'image/png' }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_9', name: 'shot', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'toolu_9', toolName: 'shot', content: 'the screen:', parts: [{ type: 'text', text: 'the screen:' }, { type: 'image', data: PIXEL, mediaType: 'image/png' }] },
      ],
      tools: [{ name: 'shot', description: 'Shoots.', parameters: { type: 'object', properties: {} } }],
    });
    const [user, assistant, tool] = server.requests[0]!.json.messages;
    expect(user.content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } });
    expect(assistant.content).toEqual([{ type: 'tool_use', id: 'toolu_9', name: 'shot', input: {} }]);
    expect(tool.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_9' });
    expect(JSON.stringify(tool.content[0].content)).toContain(PIXEL);
  });

  it('a failed tool call goes back as an error result, and a model that is not one is a one-line TypeError', async () => {
    server.queue(answer('noted'));
    await fromAiSdk(claude()).complete({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'go', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'toolu_1', toolName: 'go', content: 'Error [DENIED]: no', isError: true },
      ],
      tools: [],
    });
    expect(server.requests[0]!.json.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(() => fromAiSdk({ specificationVersion: 'v1', provider: 'old', modelId: 'm', doGenerate: async () => ({}), doStream: async () => ({}) })).toThrow(/speaks provider spec "v1"; weir speaks v2, v3 and v4/);
    expect(() => fromAiSdk('openai/gpt-5' as never)).toThrow(/expected an AI SDK language model/);
  });

  it("an agent turn on the bridge: the model's failure is the turn's error, never a crash of the loop", async () => {
    const harness: Harness = createHarness();
    server.queue(json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    const agent = createAgent({ model: fromAiSdk(claude()), harness });
    await expect(agent.turn('hi')).rejects.toThrow(/invalid x-api-key/);
    await harness.close();
  });
});
