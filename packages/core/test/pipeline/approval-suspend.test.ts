import { describe, expect, it } from 'vitest';
import { argumentsHash, type ApprovalKey, type ApprovalMemory, type PendingApprovalRequest } from '@weir/core';
import { echoTool, harnessWith } from '../support.js';

// ApprovalMemory.suspend: with it, a call nobody in this process can approve is stored for an
// answer from elsewhere and settles AWAITING_APPROVAL; its body never runs now.

const askAlways = { decision: 'ask' as const, reason: 'needs a person' };

function suspendingMemory(options: { stored?: 'allow' | 'deny'; failSuspend?: boolean } = {}) {
  const suspended: [ApprovalKey, PendingApprovalRequest][] = [];
  const memory: ApprovalMemory = {
    find: () => (options.stored === undefined ? undefined : { decision: options.stored }),
    record: async () => undefined,
    suspend: async (key, request) => {
      if (options.failSuspend === true) throw new Error('database down');
      suspended.push([key, request]);
    },
  };
  return { memory, suspended };
}

describe('stage 1: suspended approvals (ApprovalMemory.suspend)', () => {
  it('with no responder, stores the request (final arguments, their hash, the reason) and settles AWAITING_APPROVAL without running the body', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add(() => askAlways));
    const { memory, suspended } = suspendingMemory();
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: '{"text":"x"}' }, { approvals: memory });
    expect(result).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL', message: expect.stringContaining('awaiting approval') } });
    expect(body).not.toHaveBeenCalled();
    expect(suspended).toHaveLength(1);
    const [key, request] = suspended[0]!;
    expect(key).toMatchObject({ callId: 'c1', toolName: 'echo', argumentsHash: argumentsHash({ text: 'x' }) });
    expect(request).toMatchObject({ callId: 'c1', callKey: key.callKey, toolName: 'echo', tier: 'write', arguments: { text: 'x' }, reason: 'needs a person' });
  });

  it('asks the responder when there is one: suspension is only for calls nobody here can answer', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => ({ decision: 'allow' }));
    });
    const { memory, suspended } = suspendingMemory();
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory })).toMatchObject({ ok: true });
    expect(suspended).toEqual([]);
    expect(body).toHaveBeenCalledTimes(1);
  });

  it('a stored decision wins: an answered request runs (or is denied) and is not suspended again', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add(() => askAlways));
    const allowed = suspendingMemory({ stored: 'allow' });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: allowed.memory })).toMatchObject({ ok: true });
    const denied = suspendingMemory({ stored: 'deny' });
    expect(await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 'x' } }, { approvals: denied.memory })).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect([...allowed.suspended, ...denied.suspended]).toEqual([]);
    expect(body).toHaveBeenCalledTimes(1);
  });

  it('denies when the request cannot be stored: a suspension that is not durable would be lost', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add(() => askAlways));
    const { memory } = suspendingMemory({ failSuspend: true });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED', message: expect.stringContaining('database down') } });
    expect(body).not.toHaveBeenCalled();
  });

  it('without suspend, no responder still denies', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add(() => askAlways));
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: { find: () => undefined, record: async () => undefined } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED', message: expect.stringContaining('no approver') } });
    expect(body).not.toHaveBeenCalled();
  });
});
