import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../../harness-error.js';
import type { ToolSchema } from '../../tools/tool-registry.js';
import type { LanguageModel } from '../model.js';
import { schemaTokens, TOOL_SEARCH_TOOL } from './tool-catalog.js';
import { ToolSearch } from './tool-search.js';
import { checkToolSearch } from './tool-search-options.js';

const model = { id: 'm', complete: () => Promise.reject(new Error('not called')) } as LanguageModel;
const many = (count: number, group = 'crm'): ToolSchema[] =>
  Array.from({ length: count }, (_, i) => Object.freeze({ name: `${group}__op_${i}`, description: `Operation number ${i} of the ${group}.`, parameters: { type: 'object', properties: { id: { type: 'string' } } } }));
const search = (options: Parameters<typeof checkToolSearch>[0]) => new ToolSearch(checkToolSearch(options, undefined)!);
const call = (query: unknown, extra: Record<string, unknown> = {}) => ({ id: 'c', name: TOOL_SEARCH_TOOL, arguments: { query, ...extra } });

describe('tool search', () => {
  it('is off under the threshold: the step is left as it was', () => {
    const tools = many(3);
    expect(search({ threshold: schemaTokens(tools) }).turn().plan(tools, undefined, model)).toBeUndefined();
    expect(checkToolSearch({ when: 'never' }, undefined)).toBeUndefined();
  });

  it('past the threshold offers tool_search naming the tools; a find joins the offer, in the order found', () => {
    const tools = many(5);
    const turn = search({ threshold: 10 }).turn();
    const first = turn.plan(tools, undefined, model)!;
    expect(first.tools.map((t) => t.name)).toEqual([TOOL_SEARCH_TOOL]);
    expect(first.tools[0]!.description).toContain('crm__op_0, crm__op_1, crm__op_2, crm__op_3, crm__op_4');
    expect(turn.answer(call('crm__op_3')).content).toContain('Loaded 1 tool; call it directly from now on:\n- crm__op_3: Operation number 3');
    turn.answer(call('crm__op_1'));
    const second = turn.plan(tools, undefined, model)!;
    expect(second.tools.map((t) => t.name)).toEqual([TOOL_SEARCH_TOOL, 'crm__op_3', 'crm__op_1']);
    // The same schema objects, step after step: what a prompt cache saw stays byte for byte.
    expect(second.tools[0]).toBe(first.tools[0]);
    expect(second.tools[1]).toBe(tools[3]);
    expect(second.refusal!('crm__op_2')).toBe('The tool "crm__op_2" is not loaded yet. Call tool_search with its name (or words for what it does) to load it, then call it again.');
    expect(second.refusal!('nope')).toContain('There is no tool named "nope" at this step. Call tool_search');
  });

  it('past listNames names only the namespaces and their counts', () => {
    const tools = [...many(3, 'crm'), ...many(2, 'billing')];
    const step = search({ when: 'always', listNames: 4 }).turn().plan(tools, undefined, model)!;
    expect(step.tools[0]!.description).toContain('5 tools can be found: billing__* (2), crm__* (3).');
    expect(step.tools[0]!.description).not.toContain('crm__op_0');
  });

  it('answers bad arguments and no match as data, and refuses a registry tool named tool_search', () => {
    const tools = many(2);
    const turn = search({ when: 'always' }).turn();
    turn.plan(tools, undefined, model);
    expect(turn.answer(call(''))).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(turn.answer(call('op', { limit: 0 }))).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(turn.answer({ id: 'c', name: TOOL_SEARCH_TOOL, arguments: '{' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(turn.answer(call('weather'))).toMatchObject({ ok: true, content: 'No tool matches "weather". Try other words: what the tool does, or its exact name.' });
    const clash = [...tools, { name: TOOL_SEARCH_TOOL, description: 'mine', parameters: { type: 'object' } }];
    let caught: unknown;
    try {
      turn.plan(clash, undefined, model);
    } catch (error) {
      caught = error;
    }
    expect(isHarnessError(caught, 'POLICY_FAILED')).toBe(true);
  });

  it('checks its options at createAgent, and defaults the threshold to a tenth of the context window', () => {
    expect(checkToolSearch(undefined, 200_000)).toEqual({ when: 'auto', threshold: 20_000, listNames: 100 });
    expect(checkToolSearch(undefined, undefined)?.threshold).toBe(10_000);
    expect(() => checkToolSearch({ when: 'sometimes' as 'auto' }, undefined)).toThrow(TypeError);
    expect(() => checkToolSearch({ threshold: -1 }, undefined)).toThrow(TypeError);
    expect(() => checkToolSearch({ limit: 3 } as never, undefined)).toThrow('unknown key "limit"');
  });
});
