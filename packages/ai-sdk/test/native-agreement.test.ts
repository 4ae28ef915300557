import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { LanguageModel, ModelResponse } from '@weir/core';
import { createOpenAIModel } from '@weir/llm-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { fromAiSdk } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';
import { startReplayServer, type Reply, type ReplayServer } from './replay-server.js';

const root = sharedFixture('recorded-streams', 'the bridge beside @weir/llm-openai on recorded Chat Completions traffic');

interface ChatRecording {
  readonly id: string;
  readonly file: string;
  readonly serve: 'vercel-chunks' | 'raw';
  readonly status: number;
  readonly contentType: string;
}

/**
 * Recordings of servers that speak a dialect @ai-sdk/openai does not read (the AI SDK has a package
 * of their own for them, @ai-sdk/mistral and others): the package rejects the body, or reads less of it.
 */
const OTHER_DIALECT: Readonly<Record<string, string>> = {
  'vercel:mistral__mistral-reasoning': 'Mistral thinking chunks (content as an array)',
  'vercel:mistral__mistral-tool-call': 'Mistral tool calls without index',
  'vercel:mistral__mistral-tool-call.json-body': 'Mistral tool calls without type',
  'vercel:openai-compatible__issue-13703-mistral-thinking': 'Mistral thinking chunks (content as an array)',
  'pydantic-ai:test_mistral__test_mistral_model_thinking_part_iter.0': 'Mistral thinking chunks (content as an array)',
  'pydantic-ai:test_groq__test_groq_model_thinking_part_iter.0': "Groq's usage under x_groq (@ai-sdk/groq reads it)",
  'pydantic-ai:test_groq__test_groq_model_web_search_tool_stream.0': "Groq's usage under x_groq (@ai-sdk/groq reads it)",
  'pydantic-ai:test_openrouter__test_openrouter_stream_error.0': "OpenRouter's error object inside a 200 stream, which @ai-sdk/openai does not read (@weir/llm-openai fails the call)",
  'openai-node:emits-refusal-logprobs-events': "@ai-sdk/openai reads OpenAI's refusal as answer text with content-filter; @weir/llm-openai keeps it apart as `refusal`",
  'pydantic-ai:test_openai__test_compatible_api_with_tool_calls_without_id.0.json-body': 'tool calls without ids: each side names them its own way',
};

/** The Chat Completions recordings with a 200 answer, served as the folder's README says. */
function chatRecordings(): ChatRecording[] {
  if (root === undefined) return [];
  const all = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as ChatRecording[];
  return all.filter((recording) => recording.status === 200 && OTHER_DIALECT[recording.id] === undefined);
}

function reply(recording: ChatRecording): Reply {
  const raw = readFileSync(join(root!, recording.file));
  const bytes = recording.file.endsWith('.gz') ? gunzipSync(raw) : raw;
  if (recording.serve === 'raw') return { status: recording.status, contentType: recording.contentType, body: bytes };
  const lines = bytes.toString('utf8').split('\n').filter((line) => line.trim() !== '');
  return { status: 200, contentType: 'text/event-stream', body: Buffer.from(`${lines.map((line) => `data: ${line}\n\n`).join('')}data: [DONE]\n\n`) };
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

async function answer(model: LanguageModel, recording: ChatRecording): Promise<ModelResponse> {
  server.queue(reply(recording));
  const request = { messages: [{ role: 'user' as const, content: 'replayed' }], tools: [] };
  if (recording.contentType.startsWith('application/json')) return model.complete(request);
  let response: ModelResponse | undefined;
  for await (const event of model.stream!(request)) if (event.type === 'finish') response = event.response;
  return response!;
}

/**
 * What both must agree on: the answer text, the tool calls, why it stopped, the token counts; or
 * that both failed. A call id the recording does not hold is each side's own invention: not compared.
 */
async function comparable(model: LanguageModel, recording: ChatRecording, body: string) {
  let response: ModelResponse;
  try {
    response = await answer(model, recording);
  } catch {
    return { failed: true };
  }
  return {
    text: response.text,
    toolCalls: response.toolCalls.map((call) => ({ id: body.includes(call.id) ? call.id : 'made up', name: call.name, arguments: JSON.parse(typeof call.arguments === 'string' ? call.arguments || '{}' : JSON.stringify(call.arguments)) })),
    finishReason: response.finishReason,
    inputTokens: response.usage?.inputTokens,
    outputTokens: response.usage?.outputTokens,
  };
}

describe.skipIf(root === undefined)(`Chat Completions recordings: @weir/llm-openai and @ai-sdk/openai ${AI_SDK_MAJOR === 6 ? 3 : 4} through fromAiSdk agree`, () => {
  it.each(chatRecordings().map((recording) => [recording.id, recording] as const))('%s', async (_id, recording) => {
    const native = createOpenAIModel({ baseURL: `${server.origin}/v1`, apiKey: 'test-key', model: 'replayed-model', maxRetries: 0 });
    const bridged = fromAiSdk(kit.openai.createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test-key' }).chat('replayed-model'), { maxRetries: 0 });
    const body = reply(recording).body.toString('utf8');
    const ours = await comparable(native, recording, body);
    const theirs = await comparable(bridged, recording, body);
    expect(theirs).toEqual(ours);
  });
});
