import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAgent, FINAL_ANSWER_TOOL, type ToolMessage } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { createMemorySessionStore } from '@weir/session';
import { harnessWith, readFileTool } from './support.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
  required: ['city', 'population'],
  additionalProperties: false,
} as const;
const answer = (args: unknown) => ({ toolCalls: [{ name: FINAL_ANSWER_TOOL, arguments: args as Record<string, unknown> }] });

describe('structured final answer', () => {
  it('works together with tools: final_answer is offered beside them and the result carries the typed value', async () => {
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, answer({ city: 'Ghent', population: 265_000 })]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'Ghent, 265000' })) });

    const result = await agent.turn('which city?', { output: schema });

    expect(result).toMatchObject({ stopReason: 'stop', output: { city: 'Ghent', population: 265_000 } });
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; population: number } | undefined>();
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['read_file', FINAL_ANSWER_TOOL]);
    expect(model.requests[0]!.tools[1]!.parameters).toEqual(schema);
    // Every call answered: the final answer too.
    expect(agent.messages.at(-1)).toMatchObject({ role: 'tool', toolName: FINAL_ANSWER_TOOL, content: 'Final answer accepted.', isError: false });
    expect(Object.isFrozen(result.output)).toBe(true);
    model.assertAllUsed();
  });

  it('returns an invalid answer to the model with the failing paths, then accepts the corrected one', async () => {
    const model = createScriptedModel([
      answer({ city: 'Ghent', population: -3, extra: 1 }),
      (request) => {
        const last = request.messages.at(-1) as ToolMessage;
        expect(last).toMatchObject({ role: 'tool', isError: true });
        expect(last.content).toContain('INVALID_ARGUMENTS');
        expect(last.content).toContain('/population: must be >= 0');
        expect(last.content).toContain('/extra: is not allowed');
        return answer('{"city":"Ghent","population":3}');
      },
    ]);
    const result = await createAgent({ model, harness: harnessWith() }).turn('go', { output: schema });
    expect(result).toMatchObject({ stopReason: 'stop', output: { city: 'Ghent', population: 3 } });
    expect(result.steps).toHaveLength(2);
    model.assertAllUsed();
  });

  it('stops with output_invalid after the bound of invalid answers', async () => {
    const model = createScriptedModel([answer({ city: 1 }), answer('not json'), { text: 'Ghent, I think' }]);
    const agent = createAgent({ model, harness: harnessWith() });
    const result = await agent.turn('go', { output: schema, maxOutputAttempts: 3 });
    expect(result.stopReason).toBe('output_invalid');
    expect('output' in result).toBe(false);
    expect(result.steps).toHaveLength(3);
    model.assertAllUsed();
  });

  it('a plain-text answer is reminded to use the tool; a valid JSON text is accepted', async () => {
    const model = createScriptedModel([{ text: 'It is Ghent.' }, { text: '```json\n{"city":"Ghent","population":1}\n```' }]);
    const agent = createAgent({ model, harness: harnessWith() });
    const result = await agent.turn('go', { output: schema });
    expect(result).toMatchObject({ stopReason: 'stop', output: { city: 'Ghent', population: 1 } });
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining(`calling the ${FINAL_ANSWER_TOOL} tool`) });
  });

  it('a schema that is not an object is wrapped as { value }', async () => {
    const model = createScriptedModel([answer({ value: ['a', 'b'] })]);
    const result = await createAgent({ model, harness: harnessWith() }).turn('go', { output: { type: 'array', items: { type: 'string' } } as const });
    expect(result.output).toEqual(['a', 'b']);
    expect(model.requests[0]!.tools[0]!.parameters).toMatchObject({ type: 'object', required: ['value'] });
  });

  it('the other calls of the answering batch still run, and the turn ends', async () => {
    const runs: string[] = [];
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: FINAL_ANSWER_TOOL, arguments: { city: 'X', population: 0 } }] }]);
    const result = await createAgent({ model, harness: harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs)) }).turn('go', { output: schema });
    expect(runs).toEqual(['a.txt']);
    expect(result).toMatchObject({ stopReason: 'stop', output: { city: 'X', population: 0 } });
  });

  it('a turn without output offers no final_answer', async () => {
    const model = createScriptedModel([{ text: 'plain' }]);
    await createAgent({ model, harness: harnessWith(readFileTool({})) }).turn('go');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['read_file']);
  });

  it('a resumed session sees the final answer paired with its result', async () => {
    const store = createMemorySessionStore();
    const session = await store.create();
    const model = createScriptedModel([answer({ city: 'Ghent', population: 1 })]);
    const agent = createAgent({ model, harness: harnessWith(), session });
    await agent.turn('go', { output: schema });
    expect(session.history().messages).toEqual(agent.messages);
  });

  it('rejects a bad schema and a bad bound', async () => {
    const agent = createAgent({ model: createScriptedModel([]), harness: harnessWith() });
    await expect(agent.turn('go', { output: { type: 'nonsense' } })).rejects.toThrow(TypeError);
    await expect(agent.turn('go', { output: schema, maxOutputAttempts: 0 })).rejects.toThrow(/maxOutputAttempts/);
  });
});
