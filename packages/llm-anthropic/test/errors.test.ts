import { createAgent, createHarness, defineTool, type ModelRequest } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { anthropicModelFromEnv, isAnthropicError } from '../src/index.js';
import { LOOPBACK_API_KEY, useLoopbackServer, type LoopbackServer } from '../../llm-openai/test/loopback-server.js';
import { loopbackModel, runCall } from './anthropic-call.js';
import { sseAnswer } from './sse-answer.js';

// What no recording holds, written from Anthropic's documentation (errors, rate limits, streaming):
// 529 and 429 with retry-after, 400 and 401, an error event in the stream, max_tokens inside a call.
let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

const REQUEST: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools: [] };
const hello = () => sseAnswer([{ type: 'text', text: 'Hello there.' }], 'end_turn', { input_tokens: 5, output_tokens: 3 });
const apiError = (status: number, type: string, message: string, headers: Record<string, string> = {}) => ({ status, headers: { 'content-type': 'application/json', 'request-id': 'req_err', ...headers }, body: { type: 'error', error: { type, message } } });

describe('errors', () => {
  it.each([
    [529, 'overloaded_error', 'PROVIDER_UNAVAILABLE'],
    [429, 'rate_limit_error', 'RATE_LIMITED'],
  ])('%i %s is retried after the retry-after the server asked for', async (status, type, code) => {
    server.script(apiError(status, type, 'Try later.', { 'retry-after': '0.02' }), hello());
    const { model, retries } = loopbackModel(server);
    const outcome = await runCall('stream', model, retries, REQUEST);
    expect(outcome.response?.text).toBe('Hello there.');
    expect(retries.map((retry) => [retry.error.code, retry.delayMs])).toEqual([[code, 20]]);
  });

  it.each([
    [400, 'invalid_request_error', 'BAD_REQUEST'],
    [401, 'authentication_error', 'AUTHENTICATION'],
  ])('%i %s is not retried, and the key the server echoes is never in the error', async (status, type, code) => {
    server.script(apiError(status, type, `invalid x-api-key ${LOOPBACK_API_KEY}`));
    const { model, retries } = loopbackModel(server);
    const outcome = await runCall('complete', model, retries, REQUEST);
    expect(isAnthropicError(outcome.error)).toBe(true);
    expect(outcome.error).toMatchObject({ code, status, retryable: false, providerType: type, requestId: 'req_err' });
    const error = outcome.error as Error & { providerMessage?: string };
    expect(`${error.message} ${error.providerMessage} ${JSON.stringify(error)} ${error.stack}`).not.toContain(LOOPBACK_API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('an error event in the middle of a stream fails the turn: no partial answer is taken as an answer', async () => {
    // The text reached the caller before the error: the call cannot be retried, and rejects.
    server.script(sseAnswer([{ type: 'text', text: 'Half an answ' }, { type: 'text', text: 'er.' }], 'end_turn', { input_tokens: 5, output_tokens: 3 }, { errorAfter: 4 }));
    const harness = createHarness();
    const { model } = loopbackModel(server);
    const agent = createAgent({ model, harness });
    const deltas: string[] = [];
    await expect(agent.turn('Go.', { onEvent: (event) => event.type === 'text-delta' && deltas.push(event.text) })).rejects.toMatchObject({ code: 'MODEL_CALL_FAILED', cause: { code: 'PROVIDER_UNAVAILABLE', providerType: 'overloaded_error' } });
    expect(deltas.join('')).toBe('Half an answ');
    expect(agent.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('an error event before anything reached the caller is retried like a 529', async () => {
    server.script(sseAnswer([{ type: 'text', text: 'x' }], 'end_turn', { input_tokens: 1, output_tokens: 1 }, { errorAfter: 1 }), hello());
    const { model, retries } = loopbackModel(server);
    const outcome = await runCall('complete', model, retries, REQUEST);
    expect(outcome.response?.text).toBe('Hello there.');
    expect(retries).toHaveLength(1);
  });

  it('a stream cut before message_stop is never an answer', async () => {
    const cut = hello();
    server.script({ ...cut, body: String(cut.body).split('event: message_delta')[0] });
    const { model, retries } = loopbackModel(server, { maxRetries: 0 });
    const outcome = await runCall('complete', model, retries, REQUEST);
    expect(outcome.error).toMatchObject({ code: 'INCOMPLETE_STREAM' });
  });
});

describe('max_tokens inside a tool call', () => {
  it('never runs the call: the loop answers it as not executed', async () => {
    const runs: string[] = [];
    const harness = createHarness();
    harness.tools.register(defineTool({ name: 'write_file', description: 'Writes.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, execute: ({ path }) => void runs.push(String(path)) }));
    const answer = sseAnswer([{ type: 'tool_use', id: 'toolu_cut', name: 'write_file', input: { path: 'a.txt', content: 'a very long file' } }], 'max_tokens', { input_tokens: 5, output_tokens: 8192 });
    // The arguments stop mid-string, as they do when max_tokens cuts them.
    server.script({ ...answer, body: String(answer.body).replace(/"partial_json":"( file)?\\"}"/, '"partial_json":""').replace(/"partial_json":"long"/, '"partial_json":"lo"') });
    const { model } = loopbackModel(server);
    const result = await createAgent({ model, harness }).turn('Write it.');
    expect(result.stopReason).toBe('length');
    expect(runs).toEqual([]);
    expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'NOT_EXECUTED' } }]);
  });
});

describe('requests', () => {
  it('send images in user messages and tool results as image blocks, and a batch of results as one user message in call order with is_error', async () => {
    server.script(hello());
    const { model } = loopbackModel(server);
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    await model.complete({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is this?', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: png, mediaType: 'image/png' }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'shot', arguments: '{}' }, { id: 't2', name: 'read', arguments: { path: 'x' } }] },
        { role: 'tool', toolCallId: 't1', toolName: 'shot', content: '', parts: [{ type: 'image', url: 'https://example.com/a.png' }] },
        { role: 'tool', toolCallId: 't2', toolName: 'read', content: 'no such file', isError: true },
      ],
      tools: [],
      options: { cache: 'off', temperature: 0.2, toolChoice: 'auto', maxOutputTokens: 100 },
    });
    const body = server.requests[0]!.json as Record<string, unknown>;
    expect(server.requests[0]!.headers).toMatchObject({ 'x-api-key': LOOPBACK_API_KEY, 'anthropic-version': '2023-06-01' });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }, { type: 'tool_use', id: 't2', name: 'read', input: { path: 'x' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
            { type: 'tool_result', tool_use_id: 't2', content: 'no such file', is_error: true },
          ],
        },
      ],
      temperature: 0.2,
      stream: true,
    });
  });

  it("drops another provider's reasoning instead of sending it, and warns once for an option the API refuses with thinking", async () => {
    server.script(hello());
    const { model } = loopbackModel(server);
    const response = await model.complete({
      messages: [
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: 'Hi.', parts: [{ type: 'reasoning', text: 'secret chain', providerData: { google: { thoughtSignature: 'g==' } } }, { type: 'text', text: 'Hi.' }] },
        { role: 'user', content: 'Again.' },
      ],
      tools: [],
      options: { reasoning: 'low', temperature: 0.5 },
    });
    const body = server.requests[0]!.json as { messages: { content: unknown[] }[]; thinking: unknown; temperature?: unknown };
    expect(body.messages[1]!.content).toEqual([{ type: 'text', text: 'Hi.' }]);
    expect(JSON.stringify(body)).not.toContain('secret chain');
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.temperature).toBeUndefined();
    expect(response.warnings).toEqual(['anthropic: temperature cannot be set while thinking is on; it was left out.']);
  });
});

describe('anthropicModelFromEnv', () => {
  it('names every missing variable, never the key', () => {
    expect(() => anthropicModelFromEnv({ env: {} })).toThrow(/ANTHROPIC_API_KEY, ANTHROPIC_MODEL/);
    expect(() => anthropicModelFromEnv({ env: { ANTHROPIC_API_KEY: 'sk-ant-secret-value' } })).toThrow(/^Missing environment variable: ANTHROPIC_MODEL/);
    const model = anthropicModelFromEnv({ env: { ANTHROPIC_API_KEY: 'sk-ant-secret-value', ANTHROPIC_MODEL: 'claude-haiku-4-5', ANTHROPIC_BASE_URL: ' ' } });
    expect(model).toMatchObject({ id: 'anthropic:claude-haiku-4-5', provider: 'anthropic', metadata: { prices: { inputPerMillion: 1, cacheReadPerMillion: 0.1 } } });
  });
});
