import { describe, expect, it } from 'vitest';
import { defineTool, type StartingToolCall, type ToolCallJournal, type ToolResult } from '@weir/core';
import { deferred, echoTool, harnessWith, recordingLogger } from '../support.js';

/** A journal that writes down what it is told, in order, beside the bodies' own entries. */
function listJournal(log: string[], started: StartingToolCall[] = []): ToolCallJournal {
  return {
    started(call) {
      started.push(call);
      log.push(`started ${call.callId}`);
    },
    settled(result: ToolResult) {
      log.push(`settled ${result.callId} ${result.ok ? 'ok' : result.error.code}`);
    },
  };
}

describe('the run journal (ExecuteOptions.journal)', () => {
  it('is told each start before its body, with the tier and the final arguments, and each result in call order', async () => {
    const log: string[] = [];
    const started: StartingToolCall[] = [];
    const release = deferred();
    const slow = defineTool({
      name: 'slow',
      description: 'Finishes when released.',
      tier: 'write',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: async ({ id }) => {
        log.push(`body ${id}`);
        await release.promise;
        return id;
      },
    });
    const echoRan = deferred();
    const { tool: echo } = echoTool({
      execute: async ({ text }: { text: string }) => {
        log.push(`body ${text}`);
        echoRan.resolve();
        return text;
      },
    } as never);
    const harness = await harnessWith([slow, echo], (ctx) => {
      ctx.hooks.prepareExecution.tap((preparation) => (preparation.status === 'ready' && 'text' in preparation.arguments ? { action: 'rewrite', arguments: { text: 'final' } } : undefined));
    });
    const run = harness.executeToolCalls(
      [
        { id: 'a', name: 'slow', arguments: { id: 'a' } },
        { id: 'b', name: 'echo', arguments: { text: 'first' } },
      ],
      { journal: listJournal(log, started) },
    );
    await echoRan.promise;
    release.resolve();
    await run;
    expect(log.indexOf('started a')).toBeLessThan(log.indexOf('body a'));
    expect(log.indexOf('started b')).toBeLessThan(log.indexOf('body final'));
    // b finished first, but results are told in call order, after every body ran.
    expect(log.filter((entry) => entry.startsWith('settled'))).toEqual(['settled a ok', 'settled b ok']);
    expect(started).toEqual([
      { callId: 'a', callKey: expect.any(String), toolName: 'slow', tier: 'write', arguments: { id: 'a' } },
      { callId: 'b', callKey: expect.any(String), toolName: 'echo', tier: 'read-only', arguments: { text: 'final' } },
    ]);
  });

  it('keeps the body from running when the start is refused, and the call fails NOT_EXECUTED', async () => {
    const { tool, body } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool]);
    const settled: ToolResult[] = [];
    const journal: ToolCallJournal = {
      started: async () => Promise.reject(new Error('disk full')),
      settled: (result) => void settled.push(result),
    };
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { journal });
    expect(body).not.toHaveBeenCalled();
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: 'NOT_EXECUTED', message: expect.stringContaining('disk full') } });
    expect(settled).toEqual([result]);
  });

  it('is told no start for a call that never runs, and still gets its result', async () => {
    const log: string[] = [];
    const { tool } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add((call) => ({ decision: (call.arguments as { text: string }).text === 'no' ? 'deny' : 'allow' }));
      ctx.hooks.prepareExecution.tap((preparation) =>
        preparation.status === 'ready' && preparation.arguments.text === 'cached' ? { action: 'substitute', value: 'from cache' } : undefined,
      );
    });
    await harness.executeToolCalls(
      [
        { id: 'denied', name: 'echo', arguments: { text: 'no' } },
        { id: 'invalid', name: 'echo', arguments: '{' },
        { id: 'missing', name: 'nope', arguments: {} },
        { id: 'substituted', name: 'echo', arguments: { text: 'cached' } },
      ],
      { journal: listJournal(log) },
    );
    expect(log).toEqual(['settled denied DENIED', 'settled invalid INVALID_ARGUMENTS', 'settled missing TOOL_NOT_FOUND', 'settled substituted ok']);
  });

  it('is told one start for a call its tool retries', async () => {
    const log: string[] = [];
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails once.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      retry: { retries: 2, minTimeoutMs: 0, maxTimeoutMs: 0 },
      execute: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('transient');
        return 'done';
      },
    });
    const harness = await harnessWith([flaky]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'flaky', arguments: {} }, { journal: listJournal(log) });
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(log).toEqual(['started c1', 'settled c1 ok']);
  });

  it('a journal that throws on a result is logged; the result stands', async () => {
    const { logger, records } = recordingLogger();
    const { tool } = echoTool();
    const harness = await harnessWith([tool], undefined, { logger });
    const journal: ToolCallJournal = {
      started: () => undefined,
      settled: () => {
        throw new Error('ui bug');
      },
    };
    const results = await harness.executeToolCalls([{ id: 'c1', name: 'echo', arguments: { text: 'x' } }], { journal });
    expect(results[0]).toMatchObject({ ok: true, content: 'x' });
    expect(records.some((record) => record.level === 'warn' && JSON.stringify(record.args).includes('c1'))).toBe(true);
  });
});
