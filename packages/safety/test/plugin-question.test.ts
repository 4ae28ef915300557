import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin, type ApprovalOutcome, type PluginContext } from '@weir/core';
import { safety, type ApproverRequest } from '@weir/safety';

// A plugin asking the approver a question of its own (ctx.approval.request: an MCP server's
// elicitation or sampling) has no policy decision behind it: safety asks its approver once.
async function asker() {
  let context: PluginContext | undefined;
  return {
    plugin: definePlugin({ name: 'asker', setup: (ctx) => void (context = ctx) }),
    ask: (): Promise<ApprovalOutcome> =>
      context!.approval.request({ callId: 'c1', callKey: 'k1', toolName: 'srv__form', tier: 'write', arguments: { answer: { name: 'Ada' } }, reason: 'The MCP server "srv" asks for information' }),
  };
}

describe("a plugin's own question", () => {
  it("reaches safety's approver, marked as the plugin's, with nothing to remember; its answer is the outcome", async () => {
    const seen: ApproverRequest[] = [];
    let decision: 'allow' | 'deny' = 'allow';
    const harness = createHarness();
    const question = await asker();
    await harness.use(safety({ approver: (request) => (seen.push(request), { decision, scope: 'session', message: 'no thanks' }) }));
    await harness.use(question.plugin);
    expect(await question.ask()).toEqual({ approved: true });
    expect(seen[0]).toMatchObject({ origin: 'plugin', askedBy: 'asker', toolName: 'srv__form', arguments: { answer: { name: 'Ada' } }, session: undefined });
    decision = 'deny';
    expect(await question.ask()).toEqual({ approved: false, message: 'The user denied this srv__form call. The user said: no thanks' });
    // An "allow for the session" granted nothing: the approver is asked again.
    decision = 'allow';
    await question.ask();
    expect(seen).toHaveLength(3);
    await harness.close();
  });

  it('is denied when no approver is set', async () => {
    const harness = createHarness();
    const question = await asker();
    await harness.use(safety());
    await harness.use(question.plugin);
    expect(await question.ask()).toMatchObject({ approved: false, message: expect.stringContaining('no approver is available') });
    await harness.close();
  });
});
