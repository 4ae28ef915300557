import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createHarness, defineTool } from '@weir/core';
import { otel } from '@weir/otel';
import { afterAll, describe, expect, it } from 'vitest';
import { isChildOf, memoryTracing } from './support.js';

afterAll(() => {
  trace.disable();
  context.disable();
});

describe('with the SDK registered globally (no tracer option)', () => {
  it('spans go to the registered provider, named after the package, and a body\'s own spans nest under execute_tool', async () => {
    const sdk = memoryTracing();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    expect(trace.setGlobalTracerProvider(sdk.provider)).toBe(true);
    const harness = createHarness();
    harness.tools.register(
      defineTool({
        name: 'outbound',
        description: 'Calls out (makes a span of its own).',
        tier: 'read-only',
        parameters: { type: 'object', properties: {} },
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          trace.getTracer('http-client').startSpan('GET /thing').end();
          return 'ok';
        },
      }),
    );
    await harness.use(otel());
    await harness.executeToolCall({ id: 'o1', name: 'outbound', arguments: {} });
    const tool = sdk.named('execute_tool outbound');
    expect(tool.instrumentationScope.name).toBe('@weir/otel');
    expect(isChildOf(sdk.named('GET /thing'), tool)).toBe(true);
  });
});
