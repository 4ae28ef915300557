import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { createHarness, defineTool } from '../../src/index.js';

// A $ref Ajv cannot resolve: the shape check passes it, the compile on the first call refuses it.
const brokenParameters = () => ({ type: 'object', properties: { note: { $ref: `#/$defs/missing-${randomUUID()}` } } }) as const;

describe('schemas compile on the first call', () => {
  it('the first call compiles the parameters schema, the second reuses it', async () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const harness = createHarness();
    harness.tools.register(defineTool({ name: 'note', description: 'Notes.', tier: 'read-only', parameters: { type: 'object', properties: { text: { type: 'string', description: randomUUID() } }, required: ['text'] }, execute: ({ text }) => `noted ${String(text)}` }));
    expect(compile).toHaveBeenCalledTimes(0);
    expect(await harness.executeToolCall({ id: 'a', name: 'note', arguments: { text: 'one' } })).toMatchObject({ ok: true, content: 'noted one' });
    expect(compile).toHaveBeenCalledTimes(1);
    expect(await harness.executeToolCall({ id: 'b', name: 'note', arguments: { text: 2 } })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(compile).toHaveBeenCalledTimes(1);
    compile.mockRestore();
  });

  it('a parameters schema Ajv refuses is the call\'s error result, INVALID_SCHEMA, every time; the body never runs', async () => {
    const harness = createHarness();
    const execute = vi.fn(() => 'ran');
    harness.tools.register(defineTool({ name: 'broken', description: 'Broken schema.', tier: 'read-only', parameters: brokenParameters(), execute }));
    for (const id of ['a', 'b']) {
      const result = await harness.executeToolCall({ id, name: 'broken', arguments: { note: 'x' } });
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_SCHEMA' } });
      expect(result.content).toMatch(/^Error \[INVALID_SCHEMA\]: broken cannot be called: tool "broken" parameters: invalid JSON Schema: can't resolve reference/);
      expect(result.content).toContain('a fault of the tool, not of your arguments');
    }
    expect(execute).not.toHaveBeenCalled();
  });

  it('an output schema Ajv refuses fails the call after the body, INVALID_SCHEMA', async () => {
    const harness = createHarness();
    harness.tools.register(defineTool({ name: 'typed', description: 'Typed.', tier: 'read-only', parameters: { type: 'object' }, output: { schema: { $ref: `#/$defs/missing-${randomUUID()}` } }, execute: () => ({ n: 1 }) }));
    const result = await harness.executeToolCall({ id: 'a', name: 'typed', arguments: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_SCHEMA', message: expect.stringContaining('typed ran, but its result cannot be checked') } });
  });
});
