import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, defineTool, fallbackModel, isHarnessError, type AgentEvent, type LanguageModel } from '@weir/core';
import { createOpenAIModel, isOpenAIError } from '../src/index.js';
import { LOOPBACK_API_KEY, startLoopbackServer, type LoopbackServer, type ScriptedResponse } from './loopback-server.js';
import { streamedAnswer } from './scripted-answer.js';

// Model fallback with the real provider: two loopback servers, the first answering errors.
let primary: LoopbackServer;
let secondary: LoopbackServer;
beforeEach(async () => {
  [primary, secondary] = await Promise.all([startLoopbackServer(), startLoopbackServer()]);
});
afterEach(async () => {
  expect(primary.unexpected).toEqual([]);
  expect(secondary.unexpected).toEqual([]);
  await Promise.all([primary.close(), secondary.close()]);
});

const status = (code: number, message = `status ${code}`): ScriptedResponse => ({ status: code, headers: { 'content-type': 'application/json' }, body: { error: { message } } });
// No retries of its own, so each scripted error is one failed call.
const openAI = (server: LoopbackServer, model: string, extra: { timeoutMs?: number } = {}): LanguageModel =>
  createOpenAIModel({ baseURL: server.baseURL, apiKey: LOOPBACK_API_KEY, model, maxRetries: 0, ...extra });

function agentOn(model: LanguageModel) {
  const harness = createHarness();
  harness.tools.register(defineTool({ name: 'lookup', description: 'Looks a word up.', tier: 'read-only', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }, execute: ({ word }) => `${word}: found` }));
  return createAgent({ model, harness });
}
const lookup = streamedAnswer({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { word: 'weir' } }] });

describe('fallbackModel with @weir/llm-openai', () => {
  it.each([429, 503])('moves to the next model on %i, and the result says which model answered each step', async (code) => {
    primary.script(lookup, status(code));
    secondary.script(streamedAnswer({ text: 'A weir is a low dam.' }));
    const agent = agentOn(fallbackModel([openAI(primary, 'big'), openAI(secondary, 'small')]));

    const result = await agent.turn('what is a weir?');

    expect(result).toMatchObject({ stopReason: 'stop', text: 'A weir is a low dam.' });
    expect(result.steps.map((step) => step.model)).toEqual(['openai:big', 'openai:small']);
    expect(result.steps.map((step) => step.response.model)).toEqual(['openai:big', 'openai:small']);
    expect(primary.requests).toHaveLength(2);
    // The secondary got the same history: the tool result included.
    expect(JSON.stringify(secondary.requests[0]!.json)).toContain('weir: found');
  });

  it.each([
    [400, 'BAD_REQUEST'],
    [401, 'AUTHENTICATION'],
  ])('never moves on after %i: the turn rejects with the provider\'s error', async (code, expected) => {
    primary.script(status(code));
    const agent = agentOn(fallbackModel([openAI(primary, 'big'), openAI(secondary, 'small')]));

    const error = await agent.turn('hi').catch((caught: unknown) => caught);

    expect(isHarnessError(error, 'MODEL_CALL_FAILED')).toBe(true);
    expect(isOpenAIError((error as Error).cause, expected as never)).toBe(true);
    expect(secondary.requests).toHaveLength(0);
    // The history stays answerable: the user's message only.
    expect(agent.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('moves on after a timeout of the primary', async () => {
    primary.script({ ...streamedAnswer({ text: 'too late' }), gate: { beforeLine: 0, open: new Promise<void>(() => {}) } });
    secondary.script(streamedAnswer({ text: 'on time' }));
    const moves: string[] = [];
    const model = fallbackModel([openAI(primary, 'slow', { timeoutMs: 300 }), openAI(secondary, 'fast')], { onFallback: ({ from, to, error }) => moves.push(`${from} -> ${to}: ${(error as { code?: string }).code}`) });

    const result = await agentOn(model).turn('hi');

    expect(result).toMatchObject({ text: 'on time', steps: [{ model: 'openai:fast' }] });
    expect(moves).toEqual(['openai:slow -> openai:fast: TIMEOUT']);
  });

  it('the last model\'s error rejects when every model fails retryably', async () => {
    primary.script(status(429));
    secondary.script(status(503));
    const error = await agentOn(fallbackModel([openAI(primary, 'a'), openAI(secondary, 'b')])).turn('hi').catch((caught: unknown) => caught);
    expect(isOpenAIError((error as Error).cause, 'PROVIDER_UNAVAILABLE')).toBe(true);
  });

  it('streams from the model that answers: no text from the one that failed', async () => {
    primary.script(status(429));
    secondary.script(streamedAnswer({ text: 'streamed from the second' }));
    const deltas: string[] = [];
    const onEvent = (event: AgentEvent) => event.type === 'text-delta' && deltas.push(event.text);

    const result = await agentOn(fallbackModel([openAI(primary, 'a'), openAI(secondary, 'b')])).turn('hi', { onEvent });

    expect(deltas.join('')).toBe('streamed from the second');
    expect(result.steps[0]!.model).toBe('openai:b');
  });

  it('prices each step by the model that answered it', async () => {
    primary.script(status(503));
    secondary.script(streamedAnswer({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { word: 'a' } }], usage: { inputTokens: 1_000_000, outputTokens: 0 } }));
    const harness = createHarness();
    harness.tools.register(defineTool({ name: 'lookup', description: 'Looks up.', tier: 'read-only', parameters: { type: 'object' }, execute: () => 'found' }));
    const prices = { 'openai:a': { inputPerMillion: 0, outputPerMillion: 0 }, 'openai:b': { inputPerMillion: 3, outputPerMillion: 0 } };
    // $3 spent by b: the next call would cost at least $3 more, over the $5 budget.
    const agent = createAgent({ model: fallbackModel([openAI(primary, 'a'), openAI(secondary, 'b')]), harness, budget: { costUsd: 5, prices } });

    const result = await agent.turn('go');

    expect(result).toMatchObject({ stopReason: 'budget_exhausted', budget: 'costUsd', steps: [{ model: 'openai:b' }] });
  });
});
