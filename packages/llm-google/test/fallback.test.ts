import { createAgent, createHarness, defineTool, fallbackModel, type LanguageModel } from '@weir/core';
import { createOpenAIModel } from '@weir/llm-openai';
import { describe, expect, it } from 'vitest';
import { LOOPBACK_API_KEY, useLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from '../../llm-openai/test/loopback-server.js';
import { createGoogleModel } from '../src/index.js';

// fallbackModel across the two native wires: a step answered by one provider, the next by the other
// after the first failed. Each request carries only its own provider's data: no encrypted OpenAI
// reasoning goes to Gemini, no Gemini signature to OpenAI; a call that came without a Gemini
// signature gets the API's documented stand-in.

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

const responses = (): LanguageModel => createOpenAIModel({ baseURL: server.baseURL, apiKey: LOOPBACK_API_KEY, model: 'gpt-5', api: 'responses', maxRetries: 0 });
const gemini = (): LanguageModel => createGoogleModel({ baseURL: `${server.origin}/v1beta`, apiKey: 'AIza-loopback-0123456789', model: 'gemini-3-pro-preview', maxRetries: 0 });
const unavailable: ScriptedResponse = { status: 503, body: { error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } } };

function agentOn(model: LanguageModel) {
  const harness = createHarness();
  harness.tools.register(defineTool({ name: 'lookup', description: 'Looks a word up.', tier: 'read-only', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }, execute: ({ word }) => `${word}: found` }));
  return createAgent({ model, harness });
}

const sse = (lines: string[]): ScriptedResponse => ({ headers: { 'content-type': 'text/event-stream' }, body: lines.join('') });
const responsesEvent = (event: Record<string, unknown>) => `event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`;
const geminiChunk = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\r\n\r\n`;

const responsesLookup = sse([
  responsesEvent({ type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAAA-openai-only', summary: [] } }),
  responsesEvent({ type: 'response.output_item.done', output_index: 1, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"word":"weir"}' } }),
  responsesEvent({ type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [] } }),
]);
const geminiLookup = sse([geminiChunk({ candidates: [{ content: { role: 'model', parts: [{ text: 'Plan', thought: true, thoughtSignature: 'SIG-gemini-only' }, { functionCall: { name: 'lookup', args: { word: 'weir' } }, thoughtSignature: 'SIG-call' }] }, finishReason: 'STOP' }] })]);

function checked(check: (request: RecordedRequest) => void, respond: ScriptedResponse) {
  return (request: RecordedRequest) => {
    check(request);
    return respond;
  };
}

describe('fallbackModel across the Responses API and Gemini', () => {
  it('sends Gemini no OpenAI reasoning, and the call it did not sign with the stand-in signature', async () => {
    server.script(
      responsesLookup,
      unavailable,
      checked((request) => {
        expect(request.path).toContain(':streamGenerateContent');
        expect(request.body).not.toContain('gAAAA-openai-only');
        expect((request.json as { contents: unknown }).contents).toEqual([
          { role: 'user', parts: [{ text: 'what is a weir?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { word: 'weir' } }, thoughtSignature: 'skip_thought_signature_validator' }] },
          { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'weir: found' } } }] },
        ]);
      }, sse([geminiChunk({ candidates: [{ content: { role: 'model', parts: [{ text: 'A low dam.' }] }, finishReason: 'STOP' }] })])),
    );
    const result = await agentOn(fallbackModel([responses(), gemini()])).turn('what is a weir?');
    expect(result.text).toBe('A low dam.');
    expect(result.steps.map((step) => step.model)).toEqual(['openai:gpt-5', 'google:gemini-3-pro-preview']);
  });

  it('sends the Responses API no Gemini signature, and its call without an item id', async () => {
    server.script(
      geminiLookup,
      unavailable,
      checked((request) => {
        expect(request.path).toBe('/v1/responses');
        expect(request.body).not.toContain('SIG-');
        expect((request.json as { input: unknown }).input).toEqual([
          { role: 'user', content: 'what is a weir?' },
          { type: 'function_call', call_id: 'call_1_0', name: 'lookup', arguments: '{"word":"weir"}' },
          { type: 'function_call_output', call_id: 'call_1_0', output: 'weir: found' },
        ]);
      }, sse([responsesEvent({ type: 'response.output_item.done', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A low dam.' }] } }), responsesEvent({ type: 'response.completed', response: { id: 'resp_2', status: 'completed', output: [] } })])),
    );
    const result = await agentOn(fallbackModel([gemini(), responses()])).turn('what is a weir?');
    expect(result.text).toBe('A low dam.');
    expect(result.steps.map((step) => step.model)).toEqual(['google:gemini-3-pro-preview', 'openai:gpt-5']);
  });
});
