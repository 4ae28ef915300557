import { describe, expect, it } from 'vitest';
import { defineTool } from '@weir/core';
import { harnessWith, recordingLogger } from '../support.js';

const fields = (records: { args: unknown[] }[], message: string) => records.find((record) => record.args[1] === message || String(record.args[1]).includes(message))?.args[0] as Record<string, unknown> | undefined;

describe('log fields: a core line about a call names the call, the tool, and the stage or hook', () => {
  it('an observer that fails is logged with callId, tool, tap and hook', async () => {
    const { logger, records } = recordingLogger();
    const tool = defineTool({
      name: 'reporter',
      description: 'Reports progress once.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      execute: (_args, exec) => {
        exec.progress({ message: 'half' });
        return 'done';
      },
    });
    const harness = await harnessWith(
      [tool],
      (ctx) => {
        ctx.hooks.progress.tap(() => {
          throw new Error('progress observer bug');
        });
        ctx.hooks.call.tap('call-watch', () => {
          throw new Error('call observer bug');
        });
      },
      { logger, progressIntervalMs: 0 },
    );
    await harness.executeToolCall({ id: 'l1', name: 'reporter', arguments: {} });
    expect(fields(records, 'progress observer')).toMatchObject({ callId: 'l1', tool: 'reporter', hook: 'progress', tap: 'test-plugin' });
    expect(fields(records, 'call observer')).toMatchObject({ callId: 'l1', tool: 'reporter', hook: 'call', tap: 'call-watch' });
  });

  it('a tap that fails closed is logged with its stage', async () => {
    const { logger, records } = recordingLogger();
    const tool = defineTool({
      name: 'speaker',
      description: 'Logs a line.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      execute: () => 'ok',
    });
    const harness = await harnessWith([tool], (ctx) => void ctx.hooks.postExecute.tapPromise('breaker', async () => Promise.reject(new Error('tap bug'))), { logger });
    const result = await harness.executeToolCall({ id: 'l2', name: 'speaker', arguments: {} });
    expect(result.ok || result.error.code).toBe('HOOK_FAILED');
    const failure = records.find((record) => (record.args[0] as { stage?: string }).stage === 'postExecute')?.args[0];
    expect(failure).toMatchObject({ callId: 'l2', tool: 'speaker', tap: 'breaker', stage: 'postExecute' });
  });
});
