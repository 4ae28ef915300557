import { describe, expect, it } from 'vitest';
import { createAgent, definePlugin, type ApprovalMemory, type ToolCallJournal } from '@weir/core';

import { echoTool, harnessWith, scriptedModel } from '../support.js';

// A piece of plugin code that never settles.
const never = () => new Promise<never>(() => undefined);
const call = { id: 'c1', name: 'echo', arguments: { text: 'hi' } };

/** Aborts after a tick and returns the result: the call must settle although a plugin hangs. */
async function abortedWhileHanging(harness: Awaited<ReturnType<typeof harnessWith>>, options: Record<string, unknown> = {}) {
  const controller = new AbortController();
  const pending = harness.executeToolCall(call, { signal: controller.signal, ...options });
  setTimeout(() => controller.abort(), 5);
  return pending;
}

describe('liveness: an abort settles the call at any stage', () => {
  it.each([
    ['a guard', (ctx: any) => void ctx.guards.add('hang', never)],
    ['a prepareExecution tap', (ctx: any) => void ctx.hooks.prepareExecution.tapPromise('hang', never)],
    ['an execute tap building its wrapper', (ctx: any) => void ctx.hooks.execute.tapPromise('hang', never)],
    ['a postExecute tap', (ctx: any) => void ctx.hooks.postExecute.tapPromise('hang', never)],
  ])('%s that never settles', async (_name, setup) => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], setup);
    const result = await abortedWhileHanging(harness);
    expect(result).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    if (!String(_name).includes('postExecute')) expect(body).not.toHaveBeenCalled();
  });

  it("the run's approval memory that never answers (find, then record)", async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder(() => ({ decision: 'allow' }));
    });
    const hangingFind: ApprovalMemory = { find: never, record: async () => undefined };
    expect(await abortedWhileHanging(harness, { approvals: hangingFind })).toMatchObject({ ok: false });
    const hangingRecord: ApprovalMemory = { find: () => undefined, record: never };
    expect(await abortedWhileHanging(harness, { approvals: hangingRecord })).toMatchObject({ ok: false });
    expect(body).not.toHaveBeenCalled();
  });

  it("the run's journal whose start never settles", async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool]);
    const journal: ToolCallJournal = { started: never, settled: () => undefined };
    expect(await abortedWhileHanging(harness, { journal })).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    expect(body).not.toHaveBeenCalled();
  });

  it('agent.turn settles after the abort while a guard hangs', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add('hang', never));
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] }]);
    const agent = createAgent({ model, harness });
    const controller = new AbortController();
    const turn = agent.turn('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const outcome = await turn;
    expect(outcome.stopReason).toBe('aborted');
  });
});

describe('liveness: plugin code has a bound of its own', () => {
  it.each([
    ['guard', 'prepareExecution', (ctx: any) => void ctx.guards.add('slow-guard', never)],
    ['prepareExecution tap', 'prepareExecution', (ctx: any) => void ctx.hooks.prepareExecution.tapPromise('slow-tap', never)],
    ['execute tap', 'execute', (ctx: any) => void ctx.hooks.execute.tapPromise('slow-tap', never)],
    ['postExecute tap', 'postExecute', (ctx: any) => void ctx.hooks.postExecute.tapPromise('slow-tap', never)],
  ])('a %s past hookTimeoutMs fails the call closed, naming the plugin and the stage', async (_kind, stage, setup) => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], setup, { hookTimeoutMs: 30 });
    const result = await harness.executeToolCall(call);
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    if (!result.ok) {
      expect(result.error.message).toMatch(/slow-(guard|tap)/);
      expect(result.error.message).toContain(stage);
      expect(result.error.message).toMatch(/30 ms/);
    }
    if (stage !== 'postExecute') expect(body).not.toHaveBeenCalled();
  });

  it('a slow tap inside its bound is waited for', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith(
      [tool],
      (ctx) => void ctx.hooks.postExecute.tapPromise('slow', () => new Promise((resolve) => setTimeout(() => resolve(undefined), 20))),
      { hookTimeoutMs: 1_000 },
    );
    expect(await harness.executeToolCall(call)).toMatchObject({ ok: true, content: 'hi' });
  });

  it('the wrapper an execute tap builds is bounded by the tool deadline, not the hook bound', async () => {
    const { tool } = echoTool({ timeoutMs: 40 });
    const harness = await harnessWith(
      [tool],
      (ctx) => void ctx.hooks.execute.tap('queue', (dispatch) => async (args, exec) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return dispatch(args, exec);
      }),
      { hookTimeoutMs: 10_000 },
    );
    expect(await harness.executeToolCall(call)).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it('rejects a bad hookTimeoutMs', async () => {
    await expect(harnessWith([], undefined, { hookTimeoutMs: -1 })).rejects.toThrow(/hookTimeoutMs/);
  });
});

describe('liveness: plugins unload around a hung call', () => {
  it('a harness whose guard hangs still closes', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add('hang', never), { hookTimeoutMs: 20 });
    await harness.executeToolCall(call);
    await harness.use(definePlugin({ name: 'other', setup: () => undefined }));
    await expect(harness.close()).resolves.toBeUndefined();
  });
});
