import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, isHarnessError, type AgentEvent, type StepPreparation } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { harnessWith, readFileTool } from './support.js';

const writeRuns: string[] = [];
const writeTool = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  tier: 'write',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }) => {
    writeRuns.push(path);
    return `wrote ${path}`;
  },
});

describe('prepareStep', () => {
  it('offers a subset of the tools at a step, chosen from the history so far', async () => {
    const seen: StepPreparation[] = [];
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'done' }]);
    const agent = createAgent({
      model,
      harness: harnessWith(readFileTool({ 'a.txt': 'alpha' }), writeTool),
      // Read first; writing only once something was read.
      prepareStep: (preparation) => {
        seen.push({ ...preparation, messages: [...preparation.messages] });
        return { tools: preparation.messages.some((message) => message.role === 'tool') ? ['read_file', 'write_file'] : ['read_file'] };
      },
    });

    await agent.turn('go');

    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([['read_file'], ['read_file', 'write_file']]);
    expect(seen.map((preparation) => preparation.step)).toEqual([1, 2]);
    expect(seen[0]!.tools.map((tool) => tool.name)).toEqual(['read_file', 'write_file']);
    expect(seen[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'alpha' });
    model.assertAllUsed();
  });

  it('refuses a call to a tool not offered at that step like an unknown tool; the body never runs', async () => {
    writeRuns.length = 0;
    const events: AgentEvent[] = [];
    const model = createScriptedModel([
      { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'x' } }, { id: 'r', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'ok' },
    ]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' }), writeTool), prepareStep: () => ({ tools: ['read_file'] }) });

    const result = await agent.turn('go', { onEvent: (event) => events.push(event) });

    expect(writeRuns).toEqual([]);
    expect(result.toolResults.map((r) => [r.callId, r.ok, r.ok ? r.content : r.error.code])).toEqual([
      ['w', false, 'TOOL_NOT_FOUND'],
      ['r', true, 'alpha'],
    ]);
    expect(result.toolResults[0]!.content).toContain('There is no tool named "write_file" at this step. Available tools at this step: read_file.');
    // Answered in call order; only the offered call was handed to the pipeline.
    expect(agent.messages.slice(-3, -1).map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual(['w', 'r']);
    expect(events.filter((event) => event.type === 'tool-start').map((event) => (event as { call: { id: string } }).call.id)).toEqual(['r']);
    model.assertAllUsed();
  });

  it('chooses the model of a step; the step says which answered', async () => {
    const main = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }], { id: 'mock:main' });
    const cheap = createScriptedModel([{ text: 'summary' }], { id: 'mock:cheap' });
    const agent = createAgent({ model: main, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' })), prepareStep: ({ step }) => (step > 1 ? { model: cheap } : undefined) });

    const result = await agent.turn('go');

    expect(result.steps.map((step) => step.model)).toEqual(['mock:main', 'mock:cheap']);
    main.assertAllUsed();
    cheap.assertAllUsed();
  });

  it('may be async; what it throws rejects the turn with POLICY_FAILED before the model is called', async () => {
    const model = createScriptedModel([]);
    const agent = createAgent({ model, harness: harnessWith(), prepareStep: async () => { throw new Error('no plan'); } });
    const error = await agent.turn('go').catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'POLICY_FAILED')).toBe(true);
    expect((error as Error).message).toContain('no plan');
    expect(model.requests).toHaveLength(0);
    expect(agent.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('a name the registry lacks is simply not offered', async () => {
    const model = createScriptedModel([{ text: 'hi' }]);
    await createAgent({ model, harness: harnessWith(readFileTool({})), prepareStep: () => ({ tools: ['nope', 'read_file'] }) }).turn('go');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['read_file']);
  });
});
