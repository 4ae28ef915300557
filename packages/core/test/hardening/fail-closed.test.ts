import { describe, expect, it } from 'vitest';
import { echoTool, harnessWith } from '../support.js';

describe('fail-closed slips', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('a guard verdict of %j is HOOK_FAILED, never allow', async (decision) => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add('odd', () => ({ decision }) as never));
    const result = await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    expect(body).not.toHaveBeenCalled();
  });

  it.each([
    ['a string', 'boom'],
    ['undefined', undefined],
    ['null', null],
    ['an object', { some: 'thing' }],
  ])('a tap that throws %s is HOOK_FAILED naming the tap', async (_kind, thrown) => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.prepareExecution.tap('thrower', () => {
      throw thrown;
    }));
    const result = await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    if (!result.ok) expect(result.error.message).toContain('thrower');
    expect(body).not.toHaveBeenCalled();
  });

  it.each([
    ['substitute', (ctx: any) => void ctx.hooks.prepareExecution.tap('sub', () => ({ action: 'substitute', value: 1, content: 42 }))],
    ['replace in postExecute', (ctx: any) => void ctx.hooks.postExecute.tap('sub', () => ({ action: 'replace', value: 1, content: { not: 'text' } }))],
    ['replace in createSuccessResult', (ctx: any) => void ctx.hooks.createSuccessResult.tap('sub', () => ({ action: 'replace', value: 1, content: 7 }))],
  ])('non-string content from %s is HOOK_FAILED naming the tap', async (_kind, setup) => {
    const harness = await harnessWith([echoTool().tool], setup);
    const result = await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    if (!result.ok) expect(result.error.message).toContain('"sub"');
  });

  it.each([
    ['with a deadline', { timeoutMs: 1_000 }],
    ['without a deadline', { timeoutMs: Infinity }],
  ])('an execute tap returning a synchronous wrapper works %s', async (_kind, overrides) => {
    const { tool } = echoTool(overrides);
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.execute.tap('sync', () => () => 'from the wrapper' as never));
    expect(await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: true, content: 'from the wrapper' });
    const controller = new AbortController();
    expect(await harness.executeToolCall({ id: 'b', name: 'echo', arguments: { text: 'x' } }, { signal: controller.signal })).toMatchObject({ ok: true, content: 'from the wrapper' });
  });
});
