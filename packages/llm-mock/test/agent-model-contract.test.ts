import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, fallbackModel, HarnessError, type AssistantMessage, type AssistantPart, type Logger } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { createFileSessionStore } from '@weir/session';
import { harnessWith, readFileTool } from './support.js';

const files = { 'a.txt': 'alpha', 'b.txt': 'beta '.repeat(40) };
const SIGNED = { anthropic: { signature: 'EqQBCkYIBxgCKkD+/=="' } } as const;

/** A thinking answer that reads `path`: reasoning with a signature, text, then the call. */
const thinkThenRead = (path: string, id = 'toolu_1'): readonly AssistantPart[] => [
  { type: 'reasoning', text: `I should read ${path}.`, providerData: SIGNED },
  { type: 'reasoning', text: '', providerData: { anthropic: { redactedData: 'ErUBCkYIAxgC' } } },
  { type: 'text', text: `Reading ${path}.` },
  { type: 'tool-call', call: { id, name: 'read_file', arguments: { path } } },
];

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('ordered parts and provider data', () => {
  it('join the history in order, with derived content, reasoning and the normalized call ids', async () => {
    // The provider reuses the id of the first step: the loop renames it, in toolCalls and in the parts alike.
    const model = createScriptedModel([{ parts: thinkThenRead('a.txt'), providerData: { anthropic: { id: 'msg_1' } } }, { parts: thinkThenRead('b.txt') }, { text: 'done' }]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)) });
    const result = await agent.turn('read a then b');
    expect(result.stopReason).toBe('stop');
    const assistants = agent.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
    expect(assistants[0]).toMatchObject({ content: 'Reading a.txt.', reasoning: 'I should read a.txt.', providerData: { anthropic: { id: 'msg_1' } } });
    expect(assistants[1]!.toolCalls![0]!.id).toBe('toolu_1_2');
    const callPart = assistants[1]!.parts!.find((part) => part.type === 'tool-call');
    expect(callPart).toEqual({ type: 'tool-call', call: assistants[1]!.toolCalls![0] });
    // The opaque data is the same string, in the same place, in what the model is sent next.
    const sent = model.requests[2]!.messages[3] as AssistantMessage;
    expect(sent.parts!.slice(0, 3)).toEqual(thinkThenRead('b.txt').slice(0, 3));
    expect(agent.messages[4]).toMatchObject({ role: 'tool', toolCallId: 'toolu_1_2', content: files['b.txt'] });
  });

  it('go through a session, its reopening and a fork byte for byte', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-parts-'));
    const store = createFileSessionStore(dir);
    const session = await store.create({ id: 'parts' });
    const model = createScriptedModel([{ parts: thinkThenRead('a.txt') }, { parts: [{ type: 'reasoning', text: 'Done.', providerData: SIGNED }, { type: 'text', text: 'alpha it is' }] }]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)), session });
    await agent.turn('read a');
    await session.close();
    const live = JSON.parse(JSON.stringify(agent.messages));

    const reopened = await store.open('parts');
    expect(reopened.history().messages).toEqual(live);
    await reopened.close();
    const fork = await store.fork('parts', { id: 'parts-fork' });
    expect(fork.history().messages).toEqual(live);
    // What today's readers know is all there beside the parts.
    expect(fork.history().messages[1]).toMatchObject({ role: 'assistant', content: 'Reading a.txt.', reasoning: 'I should read a.txt.', toolCalls: [{ id: 'toolu_1', name: 'read_file' }] });
    await fork.close();
  });

  it('stay word for word in the steps a compaction keeps', async () => {
    const summarizer = createScriptedModel([{ text: 'a.txt was read.' }], { id: 'mock:summarizer' });
    const model = createScriptedModel([
      { parts: thinkThenRead('a.txt'), usage: { inputTokens: 400, outputTokens: 10 } },
      { parts: thinkThenRead('b.txt', 'toolu_2'), usage: { inputTokens: 900, outputTokens: 10 } },
      { text: 'done' },
    ]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)), compact: { maxTokens: 800, keepSteps: 1, model: summarizer } });
    await agent.turn('read a and b');
    const third = model.requests[2]!.messages;
    expect(third[0]!.role).toBe('user');
    expect((third[1] as AssistantMessage).parts).toEqual(thinkThenRead('b.txt', 'toolu_2').slice(0, 3).concat([{ type: 'tool-call', call: (third[1] as AssistantMessage).toolCalls![0]! }]));
  });
});

describe('per-call options', () => {
  it("go with every call, and a step's options override the agent's field by field", async () => {
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'ok' }]);
    const agent = createAgent({
      model,
      harness: harnessWith(readFileTool(files)),
      modelOptions: { maxOutputTokens: 2048, reasoning: { budgetTokens: 1024 }, cache: 'auto' },
      prepareStep: ({ step }) => (step === 1 ? { options: { toolChoice: { name: 'read_file' }, maxOutputTokens: 512 } } : undefined),
    });
    await agent.turn('go');
    expect(model.requests[0]!.options).toEqual({ maxOutputTokens: 512, reasoning: { budgetTokens: 1024 }, cache: 'auto', toolChoice: { name: 'read_file' } });
    expect(model.requests[1]!.options).toEqual({ maxOutputTokens: 2048, reasoning: { budgetTokens: 1024 }, cache: 'auto' });
  });

  it('are absent from the request when nobody sets any', async () => {
    const model = createScriptedModel([{ text: 'ok' }]);
    await createAgent({ model, harness: createHarness() }).turn('go');
    expect('options' in model.requests[0]!).toBe(false);
  });

  it('are checked where they are given', async () => {
    expect(() => createAgent({ model: createScriptedModel([]), harness: createHarness(), modelOptions: { temperature: -1 } })).toThrow(/modelOptions\.temperature/);
    const agent = createAgent({ model: createScriptedModel([]), harness: createHarness(), prepareStep: () => ({ options: { toolChoice: 'sometimes' as never } }) });
    await expect(agent.turn('go')).rejects.toSatisfy((error) => error instanceof HarnessError && error.code === 'POLICY_FAILED' && /toolChoice/.test(error.message));
  });

  it("an option the adapter could not honour is logged once per agent, not at every step", async () => {
    const warned: string[] = [];
    const logger = { warn: (_: unknown, message: string) => warned.push(message), info() {}, error() {}, debug() {}, child: () => logger } as unknown as Logger;
    const cannot = 'mock: temperature is not supported by this model; it was ignored';
    const model = createScriptedModel([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }], warnings: [cannot] },
      { text: 'ok', warnings: [cannot] },
      { text: 'again', warnings: [cannot] },
    ]);
    const harness = createHarness({ logger });
    harness.tools.register(readFileTool(files));
    const agent = createAgent({ model, harness, modelOptions: { temperature: 0.2 } });
    await agent.turn('go');
    await agent.turn('again');
    expect(warned.filter((line) => line === cannot)).toHaveLength(1);
  });
});

describe('model metadata', () => {
  it("prices each call by the stated price of the model that answered, through a fallback, cache counts at their own rates", async () => {
    const overloaded = Object.assign(new Error('overloaded'), { code: 'PROVIDER_UNAVAILABLE' });
    const first = createScriptedModel([() => { throw overloaded; }], { id: 'anthropic:a', metadata: { prices: { inputPerMillion: 100, outputPerMillion: 100 } } });
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 800_000, cacheWriteTokens: 100_000 };
    const second = createScriptedModel([{ text: 'cheap', usage }, { text: 'never' }], {
      id: 'openai:b',
      metadata: { contextWindow: 200_000, prices: { inputPerMillion: 1, outputPerMillion: 1, cacheReadPerMillion: 0.1, cacheWritePerMillion: 2 } },
    });
    // No `prices` in the budget: the members state theirs. 100k fresh * 1 + 800k * 0.1 + 100k * 2 = $0.38.
    const agent = createAgent({ model: fallbackModel([first, second]), harness: createHarness(), budget: { costUsd: 0.5 } });
    const result = await agent.turn('go');
    expect(result.steps[0]!.model).toBe('openai:b');
    expect(result.usage).toEqual(usage);
    // $0.38 spent by a step that called a tool: the next step would pass $0.30, and does not run.
    const third = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }], usage }, { text: 'never' }], { id: 'openai:b', metadata: second.metadata! });
    const again = await createAgent({ model: third, harness: harnessWith(readFileTool(files)), budget: { costUsd: 0.3 } }).turn('go');
    expect(again).toMatchObject({ stopReason: 'budget_exhausted', budget: 'costUsd' });
    expect(third.remaining).toBe(1);
  });
});
