import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel, ModelResponse } from '@weir/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { fromAiSdk } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';
import { recordedReply, startReplayServer, type Recording, type ReplayServer } from './replay-server.js';

const root = sharedFixture('recorded-streams', 'the AI SDK bridge on recorded Anthropic, Gemini and Responses traffic');
type Provider = 'anthropic' | 'gemini' | 'openai-responses';

/**
 * Recordings whose answer the AI SDK provider package itself reads differently from the manifest
 * (the bridge passes on what the package gives): features the packages do not model.
 */
const PACKAGE_READS_OTHERWISE: Readonly<Record<string, string>> = {
  'pydantic-ai.anthropic.test_unpaired_native_tool_calls.test_in_flight_mcp_call_history_is_accepted.i0': '@ai-sdk/anthropic throws on an mcp_tool_use block without its tool definition',
  'pydantic-ai.test_anthropic.test_anthropic_compaction_usage_with_cache_streaming.i0': "@ai-sdk/anthropic reads a compaction block's summary as answer text",
  'pydantic-ai.google.test_code_execution.test_receive_history_from_another_provider.i1': '@ai-sdk/google keeps no thought signature of code-execution parts',
  'pydantic-ai.google.test_structured_output.test_auto_mode_with_function_and_builtin_tools.i1': '@ai-sdk/google keeps no thought signature of built-in tool parts',
  'pydantic-ai.google.test_structured_output.test_function_tools_with_builtin_tools.i0': '@ai-sdk/google keeps no thought signature of built-in tool parts',
  'pydantic-ai.test_google.test_google_model_file_search_grounding_gemini_3_True.i3': '@ai-sdk/google keeps no thought signature of built-in tool parts',
  'pydantic-ai.test_google.test_google_model_file_search_grounding_gemini_3_True.i4': '@ai-sdk/google keeps no thought signature of built-in tool parts',
  'pydantic-ai.test_google.test_google_model_armor_prompt_template_text_gets_blocked.i1': '@ai-sdk/google reports 0 input tokens where the blocked prompt recorded none',
  'pydantic-ai.cassettes.test_tool_search.test_openai_execution_client_round_trip.i0': "@ai-sdk/openai reads OpenAI's client-executed tool_search call as a function call",
};

/** The same, for AI SDK 7's packages only. */
const PACKAGE_7_READS_OTHERWISE: Readonly<Record<string, string>> = {
  'pydantic-ai.google.test_structured_output.test_auto_output_mode_with_builtin_tools_falls_back.i0': '@ai-sdk/google 4 counts built-in tool prompt tokens as input',
  'pydantic-ai.test_google.test_google_model_web_search_tool_stream.i0': '@ai-sdk/google 4 counts built-in tool prompt tokens as input',
  'pydantic-ai.test_google.test_google_model_web_search_tool_stream.i1': '@ai-sdk/google 4 counts built-in tool prompt tokens as input',
  'pydantic-ai.test_anthropic.test_anthropic_server_tool_receive_history_from_another_provider.i0': '@ai-sdk/anthropic 4 counts server tool iterations as input',
};

function recordings(provider: Provider): Recording[] {
  if (root === undefined) return [];
  const manifest = JSON.parse(readFileSync(join(root, provider, 'manifest.json'), 'utf8')) as { fixtures: Recording[] };
  // Answers only (errors have a test of their own); Gemini's json-array bodies answer the
  // non-SSE streaming endpoint, which @ai-sdk/google never calls.
  return manifest.fixtures.filter((f) => f.kind !== 'error' && f.status === 200 && f.wire !== 'json-array' && PACKAGE_READS_OTHERWISE[f.id] === undefined && (AI_SDK_MAJOR === 6 || PACKAGE_7_READS_OTHERWISE[f.id] === undefined));
}

let kit: AiSdkKit;
let server: ReplayServer;
beforeAll(async () => {
  kit = await aiSdkKit();
  server = await startReplayServer();
});
afterAll(async () => {
  await server?.close();
});

function bridged(provider: Provider, modelId: string): LanguageModel {
  const { origin } = server;
  if (provider === 'anthropic') return fromAiSdk(kit.anthropic.createAnthropic({ baseURL: `${origin}/v1`, apiKey: 'test-key' })(modelId));
  if (provider === 'gemini') return fromAiSdk(kit.google.createGoogleGenerativeAI({ baseURL: `${origin}/v1beta`, apiKey: 'test-key' })(modelId));
  return fromAiSdk(kit.openai.createOpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key' }).responses(modelId));
}

async function answer(model: LanguageModel, streamed: boolean): Promise<ModelResponse> {
  const request = { messages: [{ role: 'user' as const, content: 'replayed' }], tools: [] };
  if (!streamed) return model.complete(request);
  let response: ModelResponse | undefined;
  for await (const event of model.stream!(request)) if (event.type === 'finish') response = event.response;
  return response!;
}

/** The signatures weir recorded, in order, where each provider's SDK package puts them. */
function signatures(response: ModelResponse, tag: string): string[] {
  const found: string[] = [];
  for (const part of response.parts ?? []) {
    const data = (part.type === 'tool-call' ? part.call.providerData : part.providerData)?.[tag] as Record<string, Record<string, unknown>> | undefined;
    const value = data?.anthropic?.signature ?? data?.google?.thoughtSignature;
    if (typeof value === 'string') found.push(value);
  }
  return found;
}

const FINISH: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter', STOP: 'stop', MAX_TOKENS: 'length', completed: 'stop', incomplete: 'length' };

/** weir's usage convention (input counts cache reads and writes, output counts reasoning) from the manifest's raw numbers. */
function weirUsage(provider: Provider, usage: Record<string, number | undefined>) {
  if (provider === 'anthropic') return { inputTokens: usage.inputTokens! + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0), outputTokens: usage.outputTokens };
  if (provider === 'gemini') return { inputTokens: usage.inputTokens, outputTokens: (usage.outputTokens ?? 0) + (usage.reasoningTokens ?? 0) };
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
}

for (const provider of ['anthropic', 'gemini', 'openai-responses'] as const) {
  const cases = recordings(provider);
  describe.skipIf(root === undefined)(`${provider} recordings through the AI SDK ${AI_SDK_MAJOR} provider package and fromAiSdk`, () => {
    it.each(cases.map((recording) => [recording.id, recording] as const))('%s', async (_id, recording) => {
      const expected = recording.expect;
      const model = bridged(provider, expected.model ?? 'replayed-model');
      server.queue(recordedReply(root!, recording, provider));
      const response = await answer(model, recording.transport === 'stream');

      expect(response.text).toBe(expected.text);
      expect(response.reasoning ?? '').toBe(expected.reasoning);
      const calls = response.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: JSON.parse(typeof call.arguments === 'string' ? call.arguments || '{}' : JSON.stringify(call.arguments)) }));
      // Gemini calls without an id get one from the SDK: compare the rest.
      expect(calls.map((call, i) => ({ ...call, id: expected.toolCalls[i]?.id === null ? null : call.id }))).toEqual(expected.toolCalls.map((call: any) => ({ id: call.id, name: call.name, arguments: call.arguments })));
      if (expected.reasoningSignatures !== undefined) expect(signatures(response, model.provider!)).toEqual(expected.reasoningSignatures);
      const finish = FINISH[expected.finishReason];
      if (finish !== undefined) expect(response.finishReason).toBe(finish === 'stop' && calls.length > 0 ? 'tool_calls' : finish);
      // A queued background response reports no usage: none is made up.
      if (expected.usage === null) {
        expect(response.usage).toBeUndefined();
        return;
      }
      expect(response.usage).toMatchObject(weirUsage(provider, expected.usage));
      if (expected.usage.cacheReadTokens !== undefined) expect(response.usage?.cacheReadTokens ?? 0).toBe(expected.usage.cacheReadTokens);
      if (expected.usage.reasoningTokens !== undefined) expect(response.usage?.reasoningTokens).toBe(expected.usage.reasoningTokens);
    });
  });
}
