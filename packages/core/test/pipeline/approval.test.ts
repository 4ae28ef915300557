import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@weir/core';
import { deferred, echoTool, harnessWith } from '../support.js';

const askAlways = { decision: 'ask' as const, reason: 'needs a person' };

describe('stage 1: approval', () => {
  it('sends the call id, tool, tier and exact final arguments to the responder', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const requests: ApprovalRequest[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tap(() => ({ action: 'rewrite', arguments: { text: 'final' } }));
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder((request) => {
        requests.push(request);
        return { decision: 'allow' };
      });
    });
    const result = await harness.executeToolCall({ id: 'call-7', name: 'echo', arguments: { text: 'first' } });
    expect(result).toMatchObject({ ok: true, content: 'final' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ callId: 'call-7', toolName: 'echo', tier: 'write', arguments: { text: 'final' }, reason: 'needs a person', askedBy: 'test-plugin' });
    expect(body.mock.calls[0]?.[0]).toEqual({ text: 'final' });
  });

  it('freezes the arguments it shows, so neither the responder nor anyone else can change them after approval', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder((request) => {
        expect(() => {
          (request.arguments as { text: string }).text = 'changed';
        }).toThrow(TypeError);
        return { decision: 'allow' };
      });
    });
    await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'shown' } });
    expect(body.mock.calls[0]?.[0]).toEqual({ text: 'shown' });
  });

  it('denies when no responder is registered', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add(() => askAlways));
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    if (!result.ok) expect(result.error.message).toMatch(/no approver/);
    expect(body).not.toHaveBeenCalled();
  });

  it('denies when the responder throws', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => {
        throw new Error('terminal went away');
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    if (!result.ok) expect(result.error.message).toContain('terminal went away');
    expect(body).not.toHaveBeenCalled();
  });

  it('denies when the responder answers anything but a clear allow', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => ({ decision: 'yes please' }) as never);
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(body).not.toHaveBeenCalled();
  });

  it('denies when the responder does not answer in time, and aborts its signal', async () => {
    const { tool, body } = echoTool();
    let responderSignal: AbortSignal | undefined;
    const harness = await harnessWith(
      [tool],
      (ctx) => {
        ctx.guards.add(() => askAlways);
        ctx.approval.setResponder((request) => {
          responderSignal = request.signal;
          return new Promise(() => undefined);
        });
      },
      { approvalTimeoutMs: 20 },
    );
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    if (!result.ok) expect(result.error.message).toMatch(/No approval came/);
    expect(responderSignal?.aborted).toBe(true);
    expect(body).not.toHaveBeenCalled();
  });

  it('denies when the call is aborted while waiting for the answer', async () => {
    const { tool, body } = echoTool();
    const asked = deferred();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => {
        asked.resolve();
        return new Promise(() => undefined);
      });
    });
    const controller = new AbortController();
    const pending = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { signal: controller.signal });
    await asked.promise;
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(body).not.toHaveBeenCalled();
  });

  it('passes a denial message on to the model', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => ({ decision: 'deny', message: 'use the staging copy instead' }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('use the staging copy instead');
  });

  it('never carries an approval over to other arguments: each call is asked with its own', async () => {
    const { tool, body } = echoTool();
    const shown: unknown[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder((request) => {
        shown.push(request.arguments);
        return { decision: request.arguments.text === 'safe' ? 'allow' : 'deny' };
      });
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'safe' } })).toMatchObject({ ok: true });
    expect(await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 'rm -rf' } })).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(shown).toEqual([{ text: 'safe' }, { text: 'rm -rf' }]);
    expect(body).toHaveBeenCalledTimes(1);
  });

  it('never asks about arguments that do not parse', async () => {
    const { tool } = echoTool();
    let asked = 0;
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => {
        asked += 1;
        return { decision: 'allow' };
      });
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: '{"text": "trunc' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(asked).toBe(0);
  });
});
