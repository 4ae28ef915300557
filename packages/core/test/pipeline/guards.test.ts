import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin, type GuardDecision } from '@weir/core';
import { echoTool, harnessWith } from '../support.js';

const permutations = <T>(items: T[]): T[][] =>
  items.length <= 1 ? [items] : items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));

describe('stage 1: guards', () => {
  it.each(permutations<GuardDecision>(['allow', 'ask', 'deny']))('the strictest answer wins whatever the order: %s, %s, %s', async (...order) => {
    const { tool, body } = echoTool();
    const asked: string[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      for (const decision of order) ctx.guards.add(`guard-${decision}`, () => ({ decision, reason: `says ${decision}` }));
      ctx.approval.setResponder((request) => {
        asked.push(request.callId);
        return { decision: 'allow' };
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    if (!result.ok) expect(result.error.message).toContain('guard-deny');
    expect(asked).toEqual([]);
    expect(body).not.toHaveBeenCalled();
  });

  it('asks for approval when the strictest answer is ask, whatever the order', async () => {
    for (const order of permutations<GuardDecision>(['allow', 'ask', 'allow'])) {
      const { tool } = echoTool();
      const asked: (string | undefined)[] = [];
      const harness = await harnessWith([tool], (ctx) => {
        order.forEach((decision, index) => ctx.guards.add(`g${index}`, () => ({ decision, reason: `g${index} says ${decision}` })));
        ctx.approval.setResponder((request) => {
          asked.push(request.reason);
          return { decision: 'allow' };
        });
      });
      expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ ok: true });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/says ask/);
    }
  });

  it('asks guards in the order they were added, and a later guard cannot relax an earlier deny', async () => {
    const { tool } = echoTool();
    const called: string[] = [];
    const harness = createHarness();
    harness.tools.register(tool);
    await harness.use(definePlugin({ name: 'first', setup: (ctx) => void ctx.guards.add(() => (called.push('first'), { decision: 'ask' })) }));
    await harness.use(
      definePlugin({
        name: 'second',
        setup: (ctx) => {
          ctx.guards.add(() => (called.push('second'), { decision: 'deny', reason: 'no' }));
          ctx.guards.add(() => (called.push('third'), { decision: 'allow' }));
        },
      }),
    );
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    // deny is final: nothing after it is asked.
    expect(called).toEqual(['first', 'second']);
  });

  it("unloading one plugin never removes or reorders another plugin's guard", async () => {
    const { tool } = echoTool();
    const harness = createHarness();
    harness.tools.register(tool);
    await harness.use(definePlugin({ name: 'keeper', setup: (ctx) => void ctx.guards.add(() => ({ decision: 'deny', reason: 'keeper' })) }));
    const unload = await harness.use(definePlugin({ name: 'visitor', setup: (ctx) => void ctx.guards.add(() => ({ decision: 'allow' })) }));
    await unload();
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'DENIED' } });
  });

  it('sees the final arguments, after every prepareExecution rewrite', async () => {
    const { tool } = echoTool();
    const seen: unknown[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tap(() => ({ action: 'rewrite', arguments: { text: 'rewritten' } }));
      ctx.guards.add((call) => {
        seen.push(call.arguments);
        return { decision: 'allow' };
      });
    });
    await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'original' } });
    expect(seen).toEqual([{ text: 'rewritten' }]);
  });

  it('fails closed on a guard that answers nonsense', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('confused', () => ({ decision: 'maybe' as GuardDecision }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    expect(body).not.toHaveBeenCalled();
  });
});
