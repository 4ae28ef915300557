import { describe, expect, it } from 'vitest';
import { echoTool, harnessWith } from '../support.js';

describe('stage 1: a guard that rewrites the arguments', () => {
  it('hands the body the new arguments, and the guards before it judge them again', async () => {
    const { tool, body } = echoTool();
    const seen: string[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('first', (call) => (seen.push(`first:${String(call.arguments.text)}`), undefined));
      ctx.guards.add('rewriter', (call) => (call.arguments.text === 'raw' ? { decision: 'allow', arguments: { text: 'clean' } } : undefined));
      ctx.guards.add('last', (call) => (seen.push(`last:${String(call.arguments.text)}`), undefined));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'raw' } });
    expect(result).toMatchObject({ ok: true, content: 'clean' });
    expect(body).toHaveBeenCalledTimes(1);
    expect(body.mock.calls[0]![0]).toEqual({ text: 'clean' });
    expect(seen).toEqual(['first:raw', 'first:clean', 'last:clean']);
  });

  it('a guard before it that denies the new arguments stops the call', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('no-evil', (call) => (call.arguments.text === 'evil' ? { decision: 'deny', reason: 'evil text' } : undefined));
      ctx.guards.add('rewriter', () => ({ decision: 'allow', arguments: { text: 'evil' } }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'fine' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    if (!result.ok) expect(result.error.message).toContain('no-evil');
    expect(body).not.toHaveBeenCalled();
  });

  it('arguments the schema refuses are INVALID_ARGUMENTS naming the guard, and nothing runs', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('sloppy', () => ({ decision: 'allow', arguments: { text: 1, extra: true } as never }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!result.ok) expect(result.error.message).toContain('guard sloppy');
    expect(body).not.toHaveBeenCalled();
  });

  it('the approver is shown the rewritten arguments, which are what the body gets', async () => {
    const { tool, body } = echoTool();
    const shown: unknown[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('rewriter', () => ({ decision: 'ask', reason: 'check it', arguments: { text: 'new' } }));
      ctx.approval.setResponder((request) => (shown.push(request.arguments), { decision: 'allow' }));
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'old' } })).toMatchObject({ ok: true, content: 'new' });
    expect(shown).toEqual([{ text: 'new' }]);
    expect(body.mock.calls[0]![0]).toBe(shown[0]);
  });

  it('a guard before it that rewrites again in the second round counts as deny', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ping', (call) => (call.arguments.text === 'b' ? { decision: 'allow', arguments: { text: 'a' } } : undefined));
      ctx.guards.add('pong', (call) => (call.arguments.text === 'a' ? { decision: 'allow', arguments: { text: 'b' } } : undefined));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'a' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    if (!result.ok) expect(result.error.message).toContain('ping');
    expect(body).not.toHaveBeenCalled();
  });
});
