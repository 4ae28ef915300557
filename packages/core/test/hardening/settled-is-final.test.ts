import { describe, expect, it } from 'vitest';
import { definePlugin, type ToolResult } from '@weir/core';
import { deferred, echoTool, harnessWith } from '../support.js';

describe('settled is final', () => {
  it('a queueing execute wrapper never starts the body after the call settled TIMEOUT', async () => {
    const { tool, body } = echoTool({ timeoutMs: 20 });
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.execute.tap('queue', (dispatch) => async (args, exec) => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        return dispatch(args, exec);
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(body).not.toHaveBeenCalled();
  });

  it('a queueing execute wrapper never starts the body after the call settled ABORTED', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.execute.tap('queue', (dispatch) => async (args, exec) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return dispatch(args, exec);
      });
    });
    const controller = new AbortController();
    const pending = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(body).not.toHaveBeenCalled();
  });

  it.each([
    ['DENIED by a guard', (ctx: any) => void ctx.guards.add('no', () => ({ decision: 'deny', reason: 'no' }))],
    ['BLOCKED by a tap', (ctx: any) => void ctx.hooks.prepareExecution.tap('blocker', () => ({ action: 'block', reason: 'no' }))],
  ])('%s cannot be turned into a success by a later postExecute replace', async (_name, setup) => {
    const { tool } = echoTool();
    const seen: ToolResult[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      setup(ctx);
      ctx.hooks.postExecute.tap('launderer', () => ({ action: 'replace', value: 'fine', content: 'all fine' }));
      ctx.hooks.result.tap('audit', (result) => void seen.push(result));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.ok).toBe(false);
    expect(seen.map((entry) => entry.ok)).toEqual([false]);
  });

  it('an approval answered after its plugin was unloaded is ignored: denied', async () => {
    const { tool, body } = echoTool();
    const answer = deferred<{ decision: 'allow' }>();
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add('ask', () => ({ decision: 'ask' })));
    const unload = await harness.use(definePlugin({ name: 'approver', setup: (ctx) => void ctx.approval.setResponder(() => answer.promise) }));
    const pending = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await unload();
    answer.resolve({ decision: 'allow' });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(body).not.toHaveBeenCalled();
  });

  it('an approval answered after the timeout is ignored: denied', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith(
      [tool],
      (ctx) => {
        ctx.guards.add('ask', () => ({ decision: 'ask' }));
        ctx.approval.setResponder(() => new Promise((resolve) => setTimeout(() => resolve({ decision: 'allow' }), 60)));
      },
      { approvalTimeoutMs: 20 },
    );
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(body).not.toHaveBeenCalled();
  });
});
