import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel, ModelResponse } from '@weir/core';
import { createAnthropicModel } from '@weir/llm-anthropic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { fromAiSdk } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';
import { recordedReply, startReplayServer, type Recording, type ReplayServer } from './replay-server.js';

const root = sharedFixture('recorded-streams', 'the bridge beside @weir/llm-anthropic on recorded Messages streams');

/** Streams the AI SDK package reads otherwise than the API means them (see recorded-streams.test.ts): not a comparison of the two adapters. */
const PACKAGE_READS_OTHERWISE = new Set(['pydantic-ai.test_anthropic.test_anthropic_compaction_usage_with_cache_streaming.i0']);

function streams(): Recording[] {
  if (root === undefined) return [];
  const manifest = JSON.parse(readFileSync(join(root, 'anthropic', 'manifest.json'), 'utf8')) as { fixtures: Recording[] };
  return manifest.fixtures.filter((f) => f.kind === 'stream' && f.status === 200 && !PACKAGE_READS_OTHERWISE.has(f.id));
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

/** What both adapters must agree on; the signatures each recorded, wherever it keeps them. */
async function comparable(model: LanguageModel, recording: Recording) {
  server.queue(recordedReply(root!, recording, 'anthropic'));
  let response: ModelResponse | undefined;
  for await (const event of model.stream!({ messages: [{ role: 'user', content: 'replayed' }], tools: [] })) if (event.type === 'finish') response = event.response;
  const signatures = (response!.parts ?? []).flatMap((part) => {
    if (part.type !== 'reasoning') return [];
    const mine = Object.values(part.providerData ?? {})[0] as Record<string, any> | undefined;
    const signature = mine?.signature ?? mine?.anthropic?.signature;
    return typeof signature === 'string' ? [signature] : [];
  });
  return {
    text: response!.text,
    reasoning: response!.reasoning ?? '',
    toolCalls: response!.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: JSON.parse(typeof call.arguments === 'string' ? call.arguments || '{}' : JSON.stringify(call.arguments)) })),
    finishReason: response!.finishReason,
    usage: { inputTokens: response!.usage?.inputTokens, outputTokens: response!.usage?.outputTokens, cacheReadTokens: response!.usage?.cacheReadTokens ?? 0, cacheWriteTokens: response!.usage?.cacheWriteTokens ?? 0 },
    signatures,
  };
}

describe.skipIf(root === undefined)(`Anthropic stream recordings: @weir/llm-anthropic and @ai-sdk/anthropic ${AI_SDK_MAJOR === 6 ? 3 : 4} through fromAiSdk agree`, () => {
  it.each(streams().map((recording) => [recording.id, recording] as const))('%s', async (_id, recording) => {
    const model = recording.expect.model ?? 'claude-sonnet-4-5';
    const native = createAnthropicModel({ baseURL: server.origin, apiKey: 'test-key', model, maxRetries: 0 });
    const bridged = fromAiSdk(kit.anthropic.createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test-key' })(model), { maxRetries: 0 });
    expect(await comparable(bridged, recording)).toEqual(await comparable(native, recording));
  });
});
