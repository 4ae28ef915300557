import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createHarness, defineTool } from '@weir/core';
import { otel } from '@weir/otel';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryTracing } from './support.js';

beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());

/** A pino logger whose lines land in `lines`, with the plugin's mixin. */
function capturedPino(mixin: (mergeObject: object) => object) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ mixin }, stream), lines };
}

describe('log lines carry the trace and span ids (pino mixin)', () => {
  it('a core line about a call, and a line the body logs, carry its execute_tool span; a line outside any span carries none', async () => {
    const sdk = memoryTracing();
    const plugin = otel({ tracer: sdk.tracer });
    const { logger, lines } = capturedPino(plugin.logFields);
    const harness = createHarness({ logger, progressIntervalMs: 0 });
    harness.tools.register(
      defineTool({
        name: 'chatty',
        description: 'Logs and reports progress.',
        tier: 'read-only',
        parameters: { type: 'object', properties: {} },
        execute: async (_args, exec) => {
          exec.logger.info({ callId: exec.callId, tool: exec.toolName }, 'body line');
          await Promise.resolve();
          exec.logger.info('body line without fields');
          exec.progress({ message: 'half' });
          return 'ok';
        },
      }),
    );
    await harness.use(plugin);
    harness.hooks.progress.tap('broken-observer', () => {
      throw new Error('observer bug');
    });
    logger.info('before any call');
    await harness.executeToolCall({ id: 'g1', name: 'chatty', arguments: {} });

    const span = sdk.named('execute_tool chatty');
    const ids = { trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId, trace_flags: '01' };
    const line = (msg: string) => lines.find((entry) => entry.msg === msg || String(entry.msg).includes(msg));
    expect(line('before any call')).not.toHaveProperty('trace_id');
    expect(line('body line')).toMatchObject({ callId: 'g1', tool: 'chatty', ...ids });
    // No callId on the line: the span is found as the active one (the body runs inside it).
    expect(line('body line without fields')).toMatchObject(ids);
    // The core's own line about the failing observer names the call, the tool and the hook.
    expect(line('progress observer')).toMatchObject({ callId: 'g1', tool: 'chatty', hook: 'progress', tap: 'broken-observer', ...ids });
  });

  it('a line logged inside an active span gets its ids; before setup and after unload, nothing', async () => {
    const sdk = memoryTracing();
    const plugin = otel({ tracer: sdk.tracer });
    expect(plugin.logFields({})).toEqual({});
    const harness = createHarness();
    const unload = await harness.use(plugin);
    const outer = sdk.tracer.startSpan('outer');
    const fields = context.with(trace.setSpan(context.active(), outer), () => plugin.logFields({}));
    outer.end();
    expect(fields).toEqual({ trace_id: outer.spanContext().traceId, span_id: outer.spanContext().spanId, trace_flags: '01' });
    await unload();
    expect(context.with(trace.setSpan(context.active(), outer), () => plugin.logFields({}))).toEqual({});
  });
});
