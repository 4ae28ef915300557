import { createAgent, createHarness, fallbackModel, type AssistantMessage } from '@weir/core';
import { createOpenAIModel } from '@weir/llm-openai';
import { describe, expect, it } from 'vitest';
import { LOOPBACK_API_KEY, useLoopbackServer, type LoopbackServer } from '../../llm-openai/test/loopback-server.js';
import { loopbackModel } from './anthropic-call.js';
import { sseAnswer } from './sse-answer.js';

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

const chatAnswer = (text: string) => ({
  headers: { 'content-type': 'text/event-stream' },
  body: `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] })}\n\ndata: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
});

describe('fallbackModel across providers', () => {
  it('moves from an overloaded Claude to an OpenAI-compatible model, and back, each sent only what it can read', async () => {
    const { model: claude } = loopbackModel(server, { maxRetries: 0 });
    const other = createOpenAIModel({ baseURL: server.baseURL, apiKey: LOOPBACK_API_KEY, model: 'gpt-loopback', maxRetries: 0 });
    server.script(
      // Turn 1: Claude thinks and answers.
      sseAnswer([{ type: 'thinking', thinking: 'Say hi.', signature: 'sig-claude==' }, { type: 'text', text: 'Hi.' }], 'end_turn', { input_tokens: 5, output_tokens: 5 }),
      // Turn 2: Claude is overloaded (529), the other model answers.
      { status: 529, headers: { 'content-type': 'application/json' }, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      chatAnswer('Hello from the other model.'),
      // Turn 3: Claude again.
      sseAnswer([{ type: 'text', text: 'Back.' }], 'end_turn', { input_tokens: 5, output_tokens: 5 }),
    );
    const fallbacks: string[] = [];
    const model = fallbackModel([claude, other], { onFallback: ({ from, to }) => fallbacks.push(`${from} -> ${to}`) });
    const agent = createAgent({ model, harness: createHarness() });
    await agent.turn('one');
    const second = await agent.turn('two');
    expect(second.steps[0]!.model).toBe('openai:gpt-loopback');
    expect(fallbacks).toEqual(['anthropic:claude-sonnet-4-5 -> openai:gpt-loopback']);
    // The Chat Completions request carries no Claude signature.
    expect(server.requests[2]!.body).not.toContain('sig-claude==');
    const third = await agent.turn('three');
    expect(third.text).toBe('Back.');
    // Claude gets its own thinking back exactly, and the other model's answer as plain text.
    const messages = (server.requests[3]!.json as { messages: { role: string; content: Record<string, unknown>[] }[] }).messages;
    expect(messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Say hi.', signature: 'sig-claude==' });
    expect(messages[3]!.content).toEqual([{ type: 'text', text: 'Hello from the other model.' }]);
    expect((agent.messages[1] as AssistantMessage).parts![0]).toMatchObject({ providerData: { anthropic: { signature: 'sig-claude==' } } });
  });
});
