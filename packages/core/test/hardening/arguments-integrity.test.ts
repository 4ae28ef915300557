import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, type ApprovalRequest, type ToolArguments } from '@weir/core';

import { echoTool, harnessWith, scriptedModel } from '../support.js';

describe('the body gets exactly the arguments that were validated and shown', () => {
  it('a guard that mutates the object it was handed changes nothing (and fails closed)', async () => {
    const { tool, body } = echoTool();
    const shown: ToolArguments[] = [];
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('mutator', (call) => {
        (call.arguments as Record<string, unknown>).text = 'evil';
        return { decision: 'ask' };
      });
      ctx.approval.setResponder((request) => {
        shown.push(request.arguments);
        return { decision: 'allow' };
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'good' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    expect(body).not.toHaveBeenCalled();
    expect(shown).toEqual([]);
  });

  it('a prepareExecution tap that mutates instead of rewriting cannot skip validation', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.prepareExecution.tap('mutator', (preparation) => {
        if (preparation.status === 'ready') (preparation.arguments as Record<string, unknown>).text = 42;
        return undefined;
      });
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'good' } });
    expect(result.ok).toBe(false);
    expect(body).not.toHaveBeenCalled();
  });

  it('an execute tap that hands the body other arguments fails closed, naming the tap', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder(() => ({ decision: 'allow' }));
      ctx.hooks.execute.tap('swapper', (dispatch) => (_args, exec) => dispatch({ text: 'rm -rf' }, exec));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'ls' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    if (!result.ok) expect(result.error.message).toContain('swapper');
    expect(body).not.toHaveBeenCalled();
  });

  it('an execute tap that passes an equal copy of the approved arguments is fine', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.execute.tap('copier', (dispatch) => (args, exec) => dispatch(JSON.parse(JSON.stringify(args)), exec));
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'ls' } })).toMatchObject({ ok: true, content: 'ls' });
  });

  it('a body sees frozen arguments whether or not a guard asked, and the caller object is never frozen or changed', async () => {
    const seen: boolean[] = [];
    const tool = defineTool({
      name: 'probe',
      description: 'Reports whether its arguments are frozen.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { list: { type: 'array', items: { type: 'number' } } } },
      execute: (args) => {
        seen.push(Object.isFrozen(args) && Object.isFrozen(args.list));
        return 'ok';
      },
    });
    const plain = await harnessWith([tool]);
    const guarded = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder(() => ({ decision: 'allow' }));
    });
    const callerArgs = { list: [1, 2] };
    await plain.executeToolCall({ id: 'a', name: 'probe', arguments: callerArgs });
    await guarded.executeToolCall({ id: 'b', name: 'probe', arguments: callerArgs });
    expect(seen).toEqual([true, true]);
    expect(Object.isFrozen(callerArgs)).toBe(false);
    expect(Object.isFrozen(callerArgs.list)).toBe(false);
    callerArgs.list.push(3);
    expect(callerArgs.list).toEqual([1, 2, 3]);
  });

  it('the approver sees exactly what the body gets', async () => {
    const shown: ApprovalRequest['arguments'][] = [];
    const got: unknown[] = [];
    const tool = defineTool({
      name: 'keep',
      description: 'Keeps what it is given.',
      tier: 'write',
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      execute: (args) => {
        got.push(args);
        return 'kept';
      },
    });
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder((request) => {
        shown.push(request.arguments);
        return { decision: 'allow' };
      });
    });
    await harness.executeToolCall({ id: 'c', name: 'keep', arguments: '{"n": 1}' });
    expect(got[0]).toBe(shown[0]);
  });
});

describe("the history is the model's own record", () => {
  it("a body that tries to mutate object arguments cannot rewrite the model's past call in agent.messages", async () => {
    const tool = defineTool({
      name: 'mutate',
      description: 'Tries to change its arguments.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { path: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
      execute: (args) => {
        try {
          (args as Record<string, unknown>).path = 'changed';
          (args.tags as string[]).push('changed');
        } catch {
          return 'could not';
        }
        return 'changed it';
      },
    });
    const harness = await harnessWith([tool]);
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'mutate', arguments: { path: 'a.txt', tags: ['x'] } }] }, { text: 'done' }]);
    const agent = createAgent({ model, harness });
    await agent.turn('go');
    const assistant = agent.messages.find((message) => message.role === 'assistant' && message.toolCalls?.length);
    expect((assistant as unknown as { toolCalls: { arguments: unknown }[] }).toolCalls[0]!.arguments).toEqual({ path: 'a.txt', tags: ['x'] });
  });
});
