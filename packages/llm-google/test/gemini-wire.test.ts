import type { Message, ModelRequest } from '@weir/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../../llm-openai/test/loopback-server.js';
import { createGoogleModel, googleModelFromEnv, isGoogleError, type GoogleModelOptions, type RetryEvent } from '../src/index.js';

const KEY = 'AIza-loopback-secret-0123456789';

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));
afterEach(() => vi.useRealTimers());

function model(options: Partial<GoogleModelOptions> = {}) {
  const retries: RetryEvent[] = [];
  const created = createGoogleModel({ baseURL: `${server.origin}/v1beta`, apiKey: KEY, model: 'gemini-3-pro-preview', maxRetryDelayMs: 5_000, ...options, onRetry: (event) => retries.push(event) });
  return { model: created, retries };
}

/** A streamed answer: each chunk one `data:` event, CRLF, no terminator (as the API sends). */
function sse(...chunks: unknown[]): ScriptedResponse {
  return { headers: { 'content-type': 'text/event-stream' }, body: chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('') };
}

const stop = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0, ...extra }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 } });
const request: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools: [] };

describe('the request', () => {
  it('sends the system prompt apart, functionResponses grouped in one user turn in call order, images as inlineData, and parameters as parametersJsonSchema', async () => {
    server.script(sse(stop([{ text: 'ok' }])));
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read', arguments: '{"path":"a"}' }, { id: 'b', name: 'read', arguments: { path: 'b' } }] },
      { role: 'tool', toolCallId: 'b', toolName: 'read', content: 'missing', isError: true },
      { role: 'tool', toolCallId: 'a', toolName: 'read', content: 'A', parts: [{ type: 'text', text: 'A' }, { type: 'image', data: 'R0lGOD==', mediaType: 'image/gif' }] },
    ];
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false };
    await model().model.complete({ messages, tools: [{ name: 'read', description: 'Read', parameters }] });
    expect(server.requests[0]!.json).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
        { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: 'skip_thought_signature_validator' }, { functionCall: { name: 'read', args: { path: 'b' } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'read', response: { output: 'A' } } },
            { functionResponse: { name: 'read', response: { error: 'missing' } } },
            { inlineData: { mimeType: 'image/gif', data: 'R0lGOD==' } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [{ functionDeclarations: [{ name: 'read', description: 'Read', parametersJsonSchema: parameters }] }],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
  });

  it("with schemaForm 'openapi' converts the schema and warns once, naming what was dropped", async () => {
    server.script(sse(stop([{ text: 'ok' }])), sse(stop([{ text: 'ok' }])));
    const warnings: string[] = [];
    const tools = [{ name: 'pick', description: 'Pick', parameters: { $schema: 'x', type: 'object', properties: { mode: { const: 'fast' }, n: { type: ['integer', 'null'] } }, additionalProperties: false, $defs: {} } }];
    const { model: gemini } = model({ schemaForm: 'openapi', onWarning: (message) => warnings.push(message) });
    await gemini.complete({ ...request, tools });
    await gemini.complete({ ...request, tools });
    expect((server.requests[0]!.json as { tools: unknown }).tools).toEqual([
      { functionDeclarations: [{ name: 'pick', description: 'Pick', parameters: { type: 'object', properties: { mode: { enum: ['fast'] }, n: { nullable: true, type: 'integer' } } } }] },
    ]);
    expect(warnings).toEqual(['The parameters of tool "pick" lost what Gemini\'s schema form rejects: additionalProperties at /, $defs at /.']);
  });
});

describe('the answer', () => {
  it('takes parallel calls with their signatures, thought parts as reasoning, and thought tokens as output', async () => {
    server.script(
      sse(
        { candidates: [{ content: { role: 'model', parts: [{ text: 'Plan', thought: true }] } }] },
        { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 1 } }, thoughtSignature: 'SIG1' }, { functionCall: { name: 'mul', args: { a: 2 } } }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, thoughtsTokenCount: 5, cachedContentTokenCount: 4, totalTokenCount: 15 } },
      ),
    );
    const answer = await model().model.complete(request);
    const add = { id: 'call_1_0', name: 'add', arguments: '{"a":1}', providerData: { google: { thoughtSignature: 'SIG1' } } };
    const mul = { id: 'call_1_1', name: 'mul', arguments: '{"a":2}' };
    expect(answer).toEqual({
      text: '',
      reasoning: 'Plan',
      toolCalls: [add, mul],
      parts: [{ type: 'reasoning', text: 'Plan' }, { type: 'tool-call', call: add }, { type: 'tool-call', call: mul }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 7, outputTokens: 8, cacheReadTokens: 4, cachedInputTokens: 4, reasoningTokens: 5 },
    });
  });

  it('turns MALFORMED_FUNCTION_CALL into a call that cannot run, so the loop tells the model', async () => {
    server.script(sse({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: print(default_api.read(path=a))' }] }));
    const answer = await model().model.complete(request);
    expect(answer.finishReason).toBe('tool_calls');
    expect(answer.toolCalls).toEqual([{ id: 'call_1_0', name: 'read', arguments: expect.stringContaining('MALFORMED_FUNCTION_CALL: Malformed function call: print(default_api.read(path=a))') }]);
    expect(() => JSON.parse(answer.toolCalls[0]!.arguments as string)).toThrow();
  });

  it('maps SAFETY to content_filter naming the category, and drops its calls', async () => {
    server.script(sse({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'x', args: {} } }] }, finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }] }));
    const answer = await model().model.complete(request);
    expect(answer.finishReason).toBe('content_filter');
    expect(answer.toolCalls).toEqual([]);
    expect(answer.refusal).toContain('SAFETY: HARM_CATEGORY_DANGEROUS_CONTENT');
  });

  it('fails an attempt whose stream ends before its finishReason, and retries it', async () => {
    server.script(sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'par' }] } }] }), sse(stop([{ text: 'whole' }])));
    const { model: gemini, retries } = model();
    expect((await gemini.complete(request)).text).toBe('whole');
    expect(retries.map((retry) => retry.error.code)).toEqual(['INCOMPLETE_STREAM']);
  });
});

describe('errors and retries', () => {
  const exhausted = (delay: string) => ({
    status: 429,
    body: { error: { code: 429, message: `Quota exceeded; key ${KEY}`, status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay }] } },
  });

  it('retries RESOURCE_EXHAUSTED after the delay it names, and 503, and never shows the key', async () => {
    server.script(exhausted('1.5s'), { status: 503, body: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } }, sse(stop([{ text: 'done' }])));
    const { model: gemini, retries } = model();
    expect((await gemini.complete(request)).text).toBe('done');
    expect(retries.map((retry) => [retry.error.code, retry.error.providerStatus])).toEqual([['RATE_LIMITED', 'RESOURCE_EXHAUSTED'], ['PROVIDER_UNAVAILABLE', 'UNAVAILABLE']]);
    expect(retries[0]!.delayMs).toBe(1_500);
    expect(retries[0]!.error.message).not.toContain(KEY);
    expect(retries[0]!.error.message).toContain('[redacted]');
  });

  it('surfaces a RESOURCE_EXHAUSTED whose delay is longer than maxRetryDelayMs instead of sleeping', async () => {
    server.script(exhausted('3600s'));
    const { model: gemini, retries } = model();
    const error = await gemini.complete(request).catch((caught: unknown) => caught);
    expect(isGoogleError(error, 'RATE_LIMITED')).toBe(true);
    expect(retries).toEqual([]);
  });

  it('does not retry a 400, and names an invalid key as an authentication failure', async () => {
    server.script({ status: 400, body: { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } } });
    const error = await model().model.complete(request).catch((caught: unknown) => caught);
    expect(isGoogleError(error, 'AUTHENTICATION')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe('googleModelFromEnv', () => {
  it('reads GEMINI_API_KEY or GOOGLE_API_KEY and GEMINI_MODEL, and names what is missing', () => {
    expect(googleModelFromEnv({ env: { GOOGLE_API_KEY: 'k-1234', GEMINI_MODEL: 'gemini-2.5-flash' } }).id).toBe('google:gemini-2.5-flash');
    expect(googleModelFromEnv({ env: { GEMINI_API_KEY: 'k-1234', GOOGLE_API_KEY: 'other', GEMINI_MODEL: 'models/gemini-3-pro-preview' } }).id).toBe('google:gemini-3-pro-preview');
    expect(() => googleModelFromEnv({ env: {} })).toThrow(/GEMINI_API_KEY \(or GOOGLE_API_KEY\), GEMINI_MODEL/);
  });
});
