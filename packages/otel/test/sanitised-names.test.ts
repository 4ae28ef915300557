import { defineTool } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { errorType } from '../src/error-type.js';
import { memoryTracing, tracedHarness } from './support.js';

const leaky = defineTool({
  name: 'leaky',
  description: 'Throws an error whose code carries data.',
  tier: 'read-only',
  parameters: { type: 'object' },
  execute: () => {
    throw Object.assign(new Error('could not open'), { code: 'ENOENT /home/alice/.ssh/id_rsa token=sk-live-1' });
  },
});

describe('error.type and tool names carry no data into traces', () => {
  it("a thrown error's code that is not a short code is not copied (its name, else _OTHER, stands in); a code-like one is kept", async () => {
    const sdk = memoryTracing();
    const { harness } = await tracedHarness({ tracer: sdk.tracer });
    harness.tools.register(leaky);
    const result = await harness.executeToolCall({ id: 'l1', name: 'leaky', arguments: {} });
    expect(result.ok).toBe(false);
    const span = sdk.named('execute_tool leaky');
    const types = [span.attributes['error.type'], ...span.events.map((event) => event.attributes?.['error.type'])].filter((value) => value !== undefined);
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(String(type)).not.toMatch(/alice|sk-live|\s/);
    // The code is not a code: the error's name stands in for it.
    expect(types).toContain('Error');
    expect(errorType(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(errorType(Object.assign(new Error('x'), { code: 'A'.repeat(65) }))).toBe('Error');
    expect(errorType({ code: 'a b', name: 'not an Error' })).toBe('_OTHER');
  });

  it('a tool name the model invented is not a span name or attribute with content capture off; with it on, it is', async () => {
    const invented = 'read_secret_of_/home/alice';
    const off = memoryTracing();
    const { harness } = await tracedHarness({ tracer: off.tracer });
    expect((await harness.executeToolCall({ id: 'u1', name: invented, arguments: {} })).ok).toBe(false);
    const span = off.named('execute_tool');
    expect(span.attributes['gen_ai.tool.name']).toBe('_OTHER');
    expect(JSON.stringify(off.spans().map((each) => [each.name, each.attributes]))).not.toContain('alice');

    const on = memoryTracing();
    const traced = await tracedHarness({ tracer: on.tracer, captureContent: true });
    await traced.harness.executeToolCall({ id: 'u2', name: invented, arguments: {} });
    expect(on.named(`execute_tool ${invented}`).attributes['gen_ai.tool.name']).toBe(invented);
  });
});
