import { describe, expect, it } from 'vitest';
import type { PluginContext } from '@weir/core';
import { echoTool, harnessWith } from '../support.js';

const boom = () => {
  throw new Error('boom');
};

const failingTaps: [string, string, (ctx: PluginContext) => void][] = [
  ['prepareExecution (sync tap)', 'prepareExecution', (ctx) => void ctx.hooks.prepareExecution.tap('faulty-plugin', boom)],
  ['prepareExecution (promise tap)', 'prepareExecution', (ctx) => void ctx.hooks.prepareExecution.tapPromise('faulty-plugin', async () => boom())],
  ['prepareExecution (bad return value)', 'prepareExecution', (ctx) => void ctx.hooks.prepareExecution.tap('faulty-plugin', () => 'nonsense' as never)],
  ['a guard', 'prepareExecution', (ctx) => void ctx.guards.add('faulty-plugin', boom)],
  ['execute (building the wrapper)', 'execute', (ctx) => void ctx.hooks.execute.tap('faulty-plugin', boom)],
  ['execute (not a function)', 'execute', (ctx) => void ctx.hooks.execute.tap('faulty-plugin', () => 42 as never)],
];

describe('a tap that throws before the body', () => {
  it.each(failingTaps)('in %s: HOOK_FAILED naming the plugin and the stage, and the body never runs', async (_label, stage, setup) => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], setup);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('HOOK_FAILED');
    expect(result.error.message).toContain('faulty-plugin');
    expect(result.error.message).toContain(stage);
    expect(body).not.toHaveBeenCalled();
  });

  it('in createSuccessResult: HOOK_FAILED naming the plugin and the stage', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.createSuccessResult.tap('faulty-plugin', boom));
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    if (!result.ok) expect(result.error.message).toMatch(/faulty-plugin.*createSuccessResult/);
  });

  it('never lets a failing plugin crash a batch', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.prepareExecution.tap('faulty-plugin', (p) => (p.status === 'ready' && p.arguments.text === 'bad' ? boom() : undefined)));
    const results = await harness.executeToolCalls([
      { id: 'a', name: 'echo', arguments: { text: 'good' } },
      { id: 'b', name: 'echo', arguments: { text: 'bad' } },
      { id: 'c', name: 'echo', arguments: { text: 'good again' } },
    ]);
    expect(results.map((result) => (result.ok ? result.content : result.error.code))).toEqual(['good', 'HOOK_FAILED', 'good again']);
  });
});
