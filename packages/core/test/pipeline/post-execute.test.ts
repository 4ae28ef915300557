import { describe, expect, it } from 'vitest';
import { defineTool } from '@weir/core';
import { echoTool, harnessWith } from '../support.js';

describe('stage 5: postExecute', () => {
  it('accepts a result unchanged when taps return undefined', async () => {
    const { tool } = echoTool();
    const seen: unknown[] = [];
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.postExecute.tapPromise(async (result) => void seen.push(result.content)));
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ ok: true, content: 'hi' });
    expect(seen).toEqual(['hi']);
  });

  it('blocks a result (BLOCKED), and no later tap can unblock it', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.postExecute.tap('leak-check', (result) => (result.content.includes('secret') ? { action: 'block', reason: 'the output contained a secret' } : undefined));
      ctx.hooks.postExecute.tap('undoer', () => ({ action: 'replace', value: 'all clear' }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'the secret is 42' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'BLOCKED' } });
    expect(result.content).not.toContain('42');
    expect(result.content).toContain('leak-check');
  });

  it('replaces a result, validating and rendering the replacement again', async () => {
    const tool = defineTool({
      name: 'stats',
      description: 'Returns stats.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      output: { schema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] }, render: (value: { total: number }) => `total=${value.total}` },
      execute: () => ({ total: 1 }),
    });
    const good = await harnessWith([tool], (ctx) => void ctx.hooks.postExecute.tap(() => ({ action: 'replace', value: { total: 99 } })));
    expect(await good.executeToolCall({ id: 'c1', name: 'stats', arguments: {} })).toMatchObject({ ok: true, value: { total: 99 }, content: 'total=99' });
    const bad = await harnessWith([tool], (ctx) => void ctx.hooks.postExecute.tap(() => ({ action: 'replace', value: { total: 'lots' } })));
    expect(await bad.executeToolCall({ id: 'c2', name: 'stats', arguments: {} })).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
  });

  it('can turn an error into a success by replacing it', async () => {
    const { tool } = echoTool({ execute: () => { throw new Error('down'); } });
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.postExecute.tap((result) => (result.ok ? undefined : { action: 'replace', value: 'fallback answer' })));
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: true, content: 'fallback answer' });
  });

  it('attaches context the model will see, on successes and on errors', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.postExecute.tap('hint', (result) => ({ action: 'addContext', text: result.ok ? 'Note: echoed.' : 'Hint: pass { text }.' }));
    });
    const ok = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(ok).toMatchObject({ ok: true, content: 'hi\n\nNote: echoed.', context: ['Note: echoed.'] });
    const failed = await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: {} });
    expect(failed).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' }, context: ['Hint: pass { text }.'] });
    expect(failed.content).toMatch(/Error \[INVALID_ARGUMENTS\][\s\S]*\n\nHint: pass \{ text \}\.$/);
  });

  it('fails closed when a postExecute tap throws: HOOK_FAILED, and the unfiltered content never reaches the model', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.postExecute.tap('redactor', () => {
        throw new Error('redaction rules failed to load');
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'password=hunter2' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    expect(result.content).not.toContain('hunter2');
    expect(result.content).toContain('redactor');
    expect(result.content).toContain('postExecute');
  });
});
