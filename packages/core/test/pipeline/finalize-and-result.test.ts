import { describe, expect, it } from 'vitest';
import { defineTool, type ToolResult } from '@weir/core';
import { echoTool, harnessWith, recordingLogger } from '../support.js';

describe('stage 6: finalizeContent, then the result notification', () => {
  it("applies the tool's own finalizeContent, then the finalizeContent taps", async () => {
    const { tool } = echoTool({ finalizeContent: (content: string) => content.toUpperCase() });
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.finalizeContent.tap('wrap', (content) => `<<${content}>>`));
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ ok: true, content: '<<HI>>' });
  });

  it('fails closed when a finalizeContent tap throws', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.finalizeContent.tap('mask', () => { throw new Error('mask broke'); }));
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'token=abc' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    expect(result.content).not.toContain('token=abc');
    expect(result.content).toMatch(/mask.*finalizeContent/);
  });

  it('gives observers the frozen final result, which they cannot change', async () => {
    const { tool } = echoTool();
    const observed: ToolResult[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.result.tap('vandal', (result) => {
        observed.push(result);
        expect(() => {
          (result as { content: string }).content = 'defaced';
        }).toThrow(TypeError);
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(observed).toEqual([result]);
    expect(observed[0]).toBe(result);
    expect(Object.isFrozen(result)).toBe(true);
    expect(result.content).toBe('hi');
  });

  it('logs an observer that throws (or rejects), and changes nothing', async () => {
    const { tool } = echoTool();
    const { logger, records } = recordingLogger();
    const later: string[] = [];
    const harness = await harnessWith(
      [tool],
      (ctx) => {
        ctx.hooks.result.tap('broken-observer', () => {
          throw new Error('observer bug');
        });
        ctx.hooks.result.tap('async-observer', async () => {
          throw new Error('async observer bug');
        });
        ctx.hooks.result.tap('later-observer', (result) => void later.push(result.content));
      },
      { logger },
    );
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: true, content: 'hi' });
    expect(later).toEqual(['hi']);
    await new Promise((resolve) => setImmediate(resolve));
    const errors = records.filter((record) => record.level === 'error').map((record) => record.args[1]);
    expect(errors).toEqual(['result observer "broken-observer" failed', 'result observer "async-observer" failed']);
  });

  it('returns and announces a batch in call order, whatever order the calls finish in', async () => {
    const sleepy = defineTool({
      name: 'sleepy',
      description: 'Sleeps, then says how long.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
      execute: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(`slept ${ms}`), ms)),
    });
    const finished: string[] = [];
    const announced: string[] = [];
    const harness = await harnessWith([sleepy], (ctx) => {
      ctx.hooks.postExecute.tap('finish-order', (result) => void finished.push(result.callId));
      ctx.hooks.result.tap('announce-order', (result) => void announced.push(result.callId));
    });
    const calls = [40, 5, 25, 1].map((ms, index) => ({ id: `c${index}`, name: 'sleepy', arguments: { ms } }));
    const results = await harness.executeToolCalls(calls, { concurrency: 4 });
    expect(results.map((result) => result.callId)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(results.map((result) => result.content)).toEqual(['slept 40', 'slept 5', 'slept 25', 'slept 1']);
    expect(finished).not.toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(announced).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('never runs more calls of a batch at once than the concurrency allows', async () => {
    let running = 0;
    let peak = 0;
    const { tool } = echoTool({
      execute: async (args: { text: string }) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 3));
        running -= 1;
        return args.text;
      },
    });
    const harness = await harnessWith([tool]);
    const calls = Array.from({ length: 12 }, (_, index) => ({ id: `c${index}`, name: 'echo', arguments: { text: String(index) } }));
    const results = await harness.executeToolCalls(calls, { concurrency: 3 });
    expect(results.map((result) => result.content)).toEqual(calls.map((call) => call.arguments.text));
    expect(peak).toBe(3);
  });

  it('mixes successes and failures in one batch without losing any', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool]);
    const results = await harness.executeToolCalls([
      { id: 'a', name: 'echo', arguments: { text: 'one' } },
      { id: 'b', name: 'missing', arguments: {} },
      { id: 'c', name: 'echo', arguments: '{bad json' },
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['ok', 'TOOL_NOT_FOUND', 'INVALID_ARGUMENTS']);
  });
});
