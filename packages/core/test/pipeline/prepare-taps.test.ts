import { describe, expect, it } from 'vitest';
import { echoTool, harnessWith } from '../support.js';

describe('stage 1: prepareExecution taps', () => {
  it('rewrites arguments, and the body gets the rewrite', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tapPromise(async (preparation) =>
        preparation.status === 'ready' ? { action: 'rewrite', arguments: { text: `${String(preparation.arguments.text)}!` } } : undefined,
      );
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: true, content: 'hi!' });
    expect(body.mock.calls[0]?.[0]).toEqual({ text: 'hi!' });
  });

  it('validates a rewrite again: an invalid one is INVALID_ARGUMENTS naming the plugin, and the body never runs', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tap('sloppy-rewriter', () => ({ action: 'rewrite', arguments: { text: 7 } }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    expect(result.error.message).toContain('sloppy-rewriter');
    expect(result.error.message).toContain('/text:');
    expect(body).not.toHaveBeenCalled();
  });

  it('blocks a call with a reason (BLOCKED), skips the later taps, and never runs the body', async () => {
    const { tool, body } = echoTool();
    const seenByLaterTap: unknown[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tap('gate', () => ({ action: 'block', reason: 'echo is switched off today' }));
      ctx.hooks.prepareExecution.tap('after-gate', (preparation) => {
        seenByLaterTap.push(preparation);
        return { action: 'rewrite', arguments: { text: 'sneaky' } };
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'BLOCKED' } });
    if (!result.ok) expect(result.error.message).toMatch(/gate.*echo is switched off today/);
    expect(seenByLaterTap).toEqual([]);
    expect(body).not.toHaveBeenCalled();
  });

  it('answers with a substitute result and skips the body', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tap('cache', () => ({ action: 'substitute', value: { cached: true } }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: true, value: { cached: true }, attempts: 0 });
    expect(result.content).toBe(JSON.stringify({ cached: true }, null, 2));
    expect(body).not.toHaveBeenCalled();
  });

  it('supports callback-style taps (tapAsync)', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tapAsync('callback-style', (_preparation, _context, callback) => {
        setImmediate(() => callback(null, { action: 'rewrite', arguments: { text: 'from a callback' } }));
      });
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: true, content: 'from a callback' });
  });
});
