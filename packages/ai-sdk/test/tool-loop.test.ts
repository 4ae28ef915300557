import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgent, createHarness, defineTool, type Harness } from '@weir/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { fromAiSdk } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

const root = sharedFixture('recorded-streams/gemini', "the bridge's three-step Gemini tool loop on recorded traffic");

let kit: AiSdkKit;
let server: ReplayServer;
let harness: Harness;
beforeAll(async () => {
  kit = await aiSdkKit();
  server = await startReplayServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  server.reset();
  await harness?.close();
});

function capitalHarness(): Harness {
  harness = createHarness();
  harness.tools.register(
    defineTool({
      name: 'get_capital',
      description: 'The capital of a country.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
      execute: ({ country }) => (country === 'France' ? 'Paris' : 'unknown'),
    }),
  );
  return harness;
}

/** An Anthropic Messages answer (the non-streamed body the agent's complete() gets). */
function anthropicAnswer(content: readonly Record<string, unknown>[], stopReason: string) {
  const body = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 40, output_tokens: 30, cache_read_input_tokens: 8, cache_creation_input_tokens: 0 } };
  return { status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify(body)) };
}

describe(`three-step tool loops with reasoning through fromAiSdk (AI SDK ${AI_SDK_MAJOR})`, () => {
  it('Anthropic: each thinking block goes back byte for byte, before its tool_use, with the tool results paired', async () => {
    const steps = [
      [{ type: 'thinking', thinking: 'I should look up France.', signature: 'sig-one/+==' }, { type: 'tool_use', id: 'toolu_1', name: 'get_capital', input: { country: 'France' } }],
      [{ type: 'redacted_thinking', data: 'redacted-blob-two' }, { type: 'thinking', thinking: 'Check once more.', signature: 'sig-two' }, { type: 'tool_use', id: 'toolu_2', name: 'get_capital', input: { country: 'France' } }],
      [{ type: 'text', text: 'The capital is Paris.' }],
    ];
    server.queue(anthropicAnswer(steps[0]!, 'tool_use'), anthropicAnswer(steps[1]!, 'tool_use'), anthropicAnswer(steps[2]!, 'end_turn'));
    const model = fromAiSdk(kit.anthropic.createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test-key' })('claude-sonnet-4-5'));
    const agent = createAgent({ model, harness: capitalHarness(), modelOptions: { reasoning: { budgetTokens: 2048 } } });

    const result = await agent.turn('What is the capital of France?');
    expect(result.text).toBe('The capital is Paris.');
    expect(result.toolResults.map((r) => r.content)).toEqual(['Paris', 'Paris']);
    expect(result.usage).toMatchObject({ inputTokens: 144, cacheReadTokens: 24, outputTokens: 90 });

    const [first, second, third] = server.requests.map((request) => request.json);
    expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    // Step 2 sends step 1's answer back: the thinking block with its signature, before the tool_use, then its result.
    expect(second.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'I should look up France.', signature: 'sig-one/+==' }, { type: 'tool_use', id: 'toolu_1', name: 'get_capital', input: { country: 'France' } }] },
      { role: 'user', content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Paris' })] },
    ]);
    const assistants = third.messages.filter((message: { role: string }) => message.role === 'assistant');
    expect(assistants[1].content).toEqual([
      { type: 'redacted_thinking', data: 'redacted-blob-two' },
      { type: 'thinking', thinking: 'Check once more.', signature: 'sig-two' },
      { type: 'tool_use', id: 'toolu_2', name: 'get_capital', input: { country: 'France' } },
    ]);
    expect(third.messages.at(-1)).toEqual({ role: 'user', content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_2', content: 'Paris' })] });
  });

  it.runIf(root)("Gemini (recorded): each step's thought signatures go back on the parts they came with", async () => {
    const recorded = [0, 1, 2].map((step) => readFileSync(join(root!, 'pydantic-ai', `test_google.test_google_model_retry.i${step}.json`)));
    server.queue(...recorded.map((body) => ({ status: 200, contentType: 'application/json', body })));
    const model = fromAiSdk(kit.google.createGoogleGenerativeAI({ baseURL: `${server.origin}/v1beta`, apiKey: 'test-key' })('gemini-2.5-pro'));
    const agent = createAgent({ model: { ...model, stream: undefined, complete: model.complete }, harness: capitalHarness() });

    const result = await agent.turn('What is the capital of France?');
    expect(result.text).toBe('Paris');
    expect(result.steps).toHaveLength(3);
    const answers = recorded.map((body) => JSON.parse(body.toString('utf8')).candidates[0].content.parts);
    const sentBack = (request: number, step: number) =>
      server.requests[request]!.json.contents.filter((content: { role: string }) => content.role === 'model')[step].parts;
    // What the model answered in step 1 is what step 2 and step 3 send back, signature and all.
    for (const [request, steps] of [[1, 1], [2, 2]] as const) {
      for (let step = 0; step < steps; step += 1) {
        const parts = sentBack(request, step);
        expect(parts.map((part: Record<string, unknown>) => part.thoughtSignature)).toEqual(answers[step].map((part: Record<string, unknown>) => part.thoughtSignature));
        // The SDK names each call with an id of its own (Gemini sent none): the name and arguments are the model's.
        const call = (part: { functionCall?: { name: string; args: unknown } }) => part.functionCall && { name: part.functionCall.name, args: part.functionCall.args };
        expect(parts.map(call)).toEqual(answers[step].map(call));
      }
    }
  });
});
