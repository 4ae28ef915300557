import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, type CallEvent, type TurnEvent, type TurnInfo } from '@weir/core';
import { echoTool, harnessWith, recordingLogger, scriptedModel } from '../support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each event as `type` or `type:detail`, in order, per call id. */
function recorder() {
  const byCall = new Map<string, CallEvent[]>();
  const tap = (event: CallEvent, context: { callId: string }) => {
    if (!byCall.has(context.callId)) byCall.set(context.callId, []);
    byCall.get(context.callId)!.push(event);
  };
  const names = (callId: string) =>
    (byCall.get(callId) ?? []).map((event) =>
      event.type === 'stage' ? `stage:${event.stage}` : event.type === 'guard' ? `guard:${event.guard}:${event.decision}` : event.type === 'attempt' ? `attempt:${event.attempt}:${event.ok}` : event.type,
    );
  return { tap, byCall, names };
}

describe('the call lifecycle: what the `call` observer hook hears', () => {
  it('an allowed call: start, validate, each guard, execute with its attempt, createSuccessResult, finalizeContent, settle', async () => {
    const events = recorder();
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('first', () => undefined);
      ctx.guards.add('second', () => ({ decision: 'allow', reason: 'fine' }));
      ctx.hooks.call.tap(events.tap);
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result.ok).toBe(true);
    expect(events.names('c1')).toEqual([
      'start',
      'stage:validate',
      'guard:first:allow',
      'guard:second:allow',
      'stage:guards',
      'attempt:1:true',
      'stage:execute',
      'stage:createSuccessResult',
      'settle',
    ]);
    const all = events.byCall.get('c1')!;
    for (const event of all) if ('durationMs' in event) expect(event.durationMs).toBeGreaterThanOrEqual(0);
    const settle = all.at(-1) as Extract<CallEvent, { type: 'settle' }>;
    expect(settle.result).toBe(result);
    expect(all.find((event) => event.type === 'guard' && event.decision === 'allow' && event.reason === 'fine')).toBeDefined();
  });

  it('a denied call ends after its guard, with the verdict and the DENIED result', async () => {
    const events = recorder();
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('no', () => ({ decision: 'deny', reason: 'not today' }));
      ctx.hooks.call.tap(events.tap);
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(body).not.toHaveBeenCalled();
    expect(events.names('c1')).toEqual(['start', 'stage:validate', 'guard:no:deny', 'stage:guards', 'settle']);
    const settle = events.byCall.get('c1')!.at(-1) as Extract<CallEvent, { type: 'settle' }>;
    expect(settle.result).toBe(result);
    expect(result.ok ? '' : result.error.code).toBe('DENIED');
  });

  it('an approval that waited: asked, answered with the wait, then the approval stage', async () => {
    const events = recorder();
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask', reason: 'check it' }));
      ctx.approval.setResponder(async () => {
        await sleep(30);
        return { decision: 'allow' };
      });
      ctx.hooks.call.tap(events.tap);
    });
    await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(events.names('c1')).toEqual([
      'start',
      'stage:validate',
      'guard:ask:ask',
      'stage:guards',
      'approval-asked',
      'approval-answered',
      'stage:approval',
      'attempt:1:true',
      'stage:execute',
      'stage:createSuccessResult',
      'settle',
    ]);
    const list = events.byCall.get('c1')!;
    expect(list.find((event) => event.type === 'approval-asked')).toMatchObject({ askedBy: 'ask', reason: 'check it' });
    const answered = list.find((event) => event.type === 'approval-answered') as Extract<CallEvent, { type: 'approval-answered' }>;
    expect(answered.approved).toBe(true);
    expect(answered.durationMs).toBeGreaterThanOrEqual(25);
  });

  it('a denied approval carries the message the model reads', async () => {
    const events = recorder();
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder(() => ({ decision: 'deny', message: 'no thanks' }));
      ctx.hooks.call.tap(events.tap);
    });
    await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    const answered = events.byCall.get('c1')!.find((event) => event.type === 'approval-answered');
    expect(answered).toMatchObject({ approved: false, message: expect.stringContaining('no thanks') });
  });

  it('a retried call tells every attempt, failed ones with what they threw', async () => {
    const events = recorder();
    let runs = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails twice.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 1 },
      execute: () => {
        runs += 1;
        if (runs < 3) throw new Error(`boom ${runs}`);
        return 'ok';
      },
    });
    const harness = await harnessWith([flaky], (ctx) => void ctx.hooks.call.tap(events.tap));
    const result = await harness.executeToolCall({ id: 'c1', name: 'flaky', arguments: {} });
    expect(result.ok).toBe(true);
    expect(events.names('c1').filter((name) => name.startsWith('attempt'))).toEqual(['attempt:1:false', 'attempt:2:false', 'attempt:3:true']);
    const first = events.byCall.get('c1')!.find((event) => event.type === 'attempt') as Extract<CallEvent, { type: 'attempt' }>;
    expect((first.error as Error).message).toBe('boom 1');
  });

  it('a timed-out call settles TIMEOUT without an attempt event for the attempt it cut off', async () => {
    const events = recorder();
    const slow = defineTool({ name: 'slow', description: 'Sleeps.', tier: 'read-only', parameters: { type: 'object', properties: {} }, timeoutMs: 20, execute: () => sleep(200) });
    const harness = await harnessWith([slow], (ctx) => void ctx.hooks.call.tap(events.tap));
    const result = await harness.executeToolCall({ id: 'c1', name: 'slow', arguments: {} });
    expect(result.ok ? '' : result.error.code).toBe('TIMEOUT');
    expect(events.names('c1')).toEqual(['start', 'stage:validate', 'stage:execute', 'settle']);
  });

  it('in a batch, each call tells how long it waited for a free slot', async () => {
    const events = recorder();
    const slow = defineTool({ name: 'slow', description: 'Sleeps.', tier: 'read-only', parameters: { type: 'object', properties: {} }, execute: () => sleep(30) });
    const harness = await harnessWith([slow], (ctx) => void ctx.hooks.call.tap(events.tap));
    await harness.executeToolCalls(
      [
        { id: 'a', name: 'slow', arguments: {} },
        { id: 'b', name: 'slow', arguments: {} },
      ],
      { concurrency: 1 },
    );
    const queued = (id: string) => (events.byCall.get(id)![0] as Extract<CallEvent, { type: 'start' }>).queuedMs;
    expect(queued('a')).toBeLessThan(20);
    expect(queued('b')).toBeGreaterThanOrEqual(25);
  });

  it('stage 6a is told when it has a tap; an unknown tool still gets start and settle', async () => {
    const events = recorder();
    const harness = await harnessWith([], (ctx) => void ctx.hooks.call.tap(events.tap));
    await harness.executeToolCall({ id: 'x', name: 'nope', arguments: {} });
    expect(events.names('x')).toEqual(['start', 'settle']);
    harness.hooks.finalizeContent.tap('redact', (content) => content.replace('secret', '***'));
    harness.hooks.postExecute.tapPromise('audit', async () => undefined);
    await harness.executeToolCall({ id: 'y', name: 'nope', arguments: {} });
    expect(events.names('y')).toEqual(['start', 'stage:postExecute', 'stage:finalizeContent', 'settle']);
  });

  it('an observer that throws is logged and changes nothing; unloading it stops the events', async () => {
    const { logger, records } = recordingLogger();
    const { tool } = echoTool();
    let heard = 0;
    const harness = await harnessWith([tool], undefined, { logger });
    const undo = harness.hooks.call.tap('bad', () => {
      heard += 1;
      throw new Error('observer bug');
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ ok: true, content: 'hi' });
    expect(heard).toBeGreaterThan(3);
    expect(records.some((record) => record.level === 'error' && (record.args[0] as { hook?: string }).hook === 'call')).toBe(true);
    undo();
    const before = heard;
    await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 'hi' } });
    expect(heard).toBe(before);
  });
});

describe('the turn lifecycle: what the `turn` observer hook hears', () => {
  it('a turn with one tool step: start, each model call with its response and usage, the calls on the turn run between, end', async () => {
    const seen: string[] = [];
    const infos = new Set<TurnInfo>();
    const turnEvents: TurnEvent[] = [];
    const { tool } = echoTool();
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.turn.tap((event, turn) => {
        infos.add(turn);
        turnEvents.push(event);
        seen.push(event.type === 'model-call-start' || event.type === 'model-call-end' ? `${event.type}:${event.step}` : event.type);
      });
      ctx.hooks.call.tap((event, context) => {
        if (event.type === 'start') seen.push(`call-start:${context.callId}:${context.run.id === [...infos][0]?.run.id}`);
      });
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'echo', arguments: { text: 'a' } }], finishReason: 'tool_calls', usage: { inputTokens: 10, outputTokens: 2 } },
      { text: 'done', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 3 } },
    ]);
    const agent = createAgent({ model, harness });
    const result = await agent.turn('hello');
    expect(result.text).toBe('done');
    expect(seen).toEqual(['turn-start', 'model-call-start:1', 'model-call-end:1', 'call-start:t1:true', 'model-call-start:2', 'model-call-end:2', 'turn-end']);
    expect(infos.size).toBe(1);
    expect([...infos][0]).toMatchObject({ modelId: 'test:scripted' });
    const ends = turnEvents.filter((event) => event.type === 'model-call-end');
    expect(ends.map((event) => event.response.usage)).toEqual([{ inputTokens: 10, outputTokens: 2 }, { inputTokens: 20, outputTokens: 3 }]);
    const start = turnEvents.find((event) => event.type === 'model-call-start')!;
    expect(start.request.messages.length).toBeGreaterThan(0);
    expect(turnEvents.at(-1)).toMatchObject({ type: 'turn-end', result: { stopReason: 'stop' } });
  });

  it('a failing model call: model-call-error, then turn-error, and the turn rejects as before', async () => {
    const types: string[] = [];
    const harness = await harnessWith([], (ctx) => void ctx.hooks.turn.tap((event) => void types.push(event.type)));
    const model = { id: 'test:broken', complete: async () => Promise.reject(new Error('down')) };
    await expect(createAgent({ model, harness }).turn('hi')).rejects.toMatchObject({ code: 'MODEL_CALL_FAILED' });
    expect(types).toEqual(['turn-start', 'model-call-start', 'model-call-error', 'turn-error']);
  });
});
