import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin, type ApprovalRequest, type PluginContext } from '@weir/core';

// ctx.approval.request: a plugin asks the harness's responder a question of its own.
async function setUp(options: { approvalTimeoutMs?: number } = {}) {
  const harness = createHarness(options);
  let ctx: PluginContext | undefined;
  const unload = await harness.use(definePlugin({ name: 'asker', setup: (context) => void (ctx = context) }));
  const question = { callId: 'c', callKey: 'k', toolName: 'srv__ask', tier: 'write' as const, arguments: { q: 1 }, reason: 'why' };
  return { harness, ctx: ctx!, question, unload };
}

describe('ctx.approval.request', () => {
  it("reaches the responder marked as the plugin's own, whatever the request claims", async () => {
    const { harness, ctx, question } = await setUp();
    const seen: ApprovalRequest[] = [];
    await harness.use(definePlugin({ name: 'person', setup: (c) => void c.approval.setResponder((request) => (seen.push(request), { decision: 'allow' })) }));
    expect(await ctx.approval.request({ ...question, askedBy: 'safety', origin: undefined } as never)).toEqual({ approved: true });
    expect(seen[0]).toMatchObject({ ...question, askedBy: 'asker', origin: 'plugin' });
    await harness.close();
  });

  it('fails closed: no responder, a timeout, an abort', async () => {
    const { harness, ctx, question } = await setUp({ approvalTimeoutMs: 20 });
    expect(await ctx.approval.request(question)).toMatchObject({ approved: false, message: expect.stringContaining('no approver is available') });
    await harness.use(definePlugin({ name: 'silent', setup: (c) => void c.approval.setResponder(() => new Promise(() => undefined)) }));
    expect(await ctx.approval.request(question)).toMatchObject({ approved: false, message: expect.stringContaining('No approval came within') });
    const aborted = new AbortController();
    aborted.abort();
    expect(await ctx.approval.request(question, { signal: aborted.signal })).toMatchObject({ approved: false });
    await harness.close();
  });

  it('throws PLUGIN_UNLOADED once the plugin is unloaded', async () => {
    const { ctx, question, unload } = await setUp();
    await unload();
    expect(() => ctx.approval.request(question)).toThrow(expect.objectContaining({ code: 'PLUGIN_UNLOADED' }));
  });
});
