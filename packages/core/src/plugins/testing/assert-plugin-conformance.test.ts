import { describe, expect, it } from 'vitest';
import { definePlugin, defineTool, type ToolDefinition } from '../../index.js';
import { assertPluginConformance, ConformanceError } from './index.js';

const goodTool = defineTool({
  name: 'shout',
  description: 'Returns the text in capitals. Use it to emphasise.',
  tier: 'read-only',
  parameters: { type: 'object', properties: { text: { type: 'string', description: 'The text.' } }, required: ['text'] },
  examples: [{ arguments: { text: 'hi' } }, { arguments: {}, expect: { ok: false, code: 'INVALID_ARGUMENTS' } }],
  execute: ({ text }) => text.toUpperCase(),
});

const pluginWith = (tool: ToolDefinition) => definePlugin({ name: 'under-test', setup: (ctx) => void ctx.tools.register(tool) });

async function problemsOf(promise: Promise<unknown>): Promise<readonly string[]> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConformanceError);
  return (error as ConformanceError).problems;
}

describe('assertPluginConformance', () => {
  it('passes a well-made plugin and runs its examples', async () => {
    expect(await assertPluginConformance(pluginWith(goodTool))).toEqual({ plugin: 'under-test', tools: ['shout'], examplesRun: 2 });
  });

  it('flags a tool without a tier, a terse description and an undescribed parameter', async () => {
    const sloppy: ToolDefinition = { ...goodTool, tier: undefined, description: 'Shouts.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, examples: [] };
    const problems = await problemsOf(assertPluginConformance(pluginWith(sloppy)));
    expect(problems.join('\n')).toMatch(/declare a tier/);
    expect(problems.join('\n')).toMatch(/description is too short/);
    expect(problems.join('\n')).toMatch(/parameter "text" has no description/);
  });

  it('flags examples that do not behave as declared', async () => {
    const wrong: ToolDefinition = { ...goodTool, examples: [{ arguments: { text: 5 } }, { arguments: { text: 'ok' }, expect: { ok: false, code: 'DENIED' } }] };
    const problems = await problemsOf(assertPluginConformance(pluginWith(wrong)));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/example 0 failed: INVALID_ARGUMENTS/);
    expect(problems[1]).toMatch(/example 1: expected DENIED, got success/);
  });

  it('fails on a plugin whose cleanup throws, and on something that is not a plugin', async () => {
    const messy = definePlugin({ name: 'messy', setup: (ctx) => void ctx.onDispose(() => { throw new Error('could not close'); }) });
    await expect(assertPluginConformance(messy)).rejects.toMatchObject({ code: 'PLUGIN_DISPOSE_FAILED' });
    await expect(assertPluginConformance({ name: 'x' } as never)).rejects.toBeInstanceOf(ConformanceError);
  });

  it('loads the dependencies a plugin declares first', async () => {
    const base = definePlugin({ name: 'base', setup: () => undefined });
    const dependent = definePlugin({ name: 'dependent', dependsOn: ['base'], setup: (ctx) => void ctx.tools.register(goodTool) });
    await expect(assertPluginConformance(dependent)).rejects.toMatchObject({ code: 'PLUGIN_DEPENDENCY_MISSING' });
    await expect(assertPluginConformance(dependent, { dependencies: [base] })).resolves.toMatchObject({ tools: ['shout'] });
  });
});
