import { describe, expect, it } from 'vitest';
import { defineTool, type ToolDefinition } from '@weir/core';
import { z } from 'zod';
import { harnessWith } from '../support.js';

const noArgs = { type: 'object', properties: {} } as const;
const returning = (value: unknown, extra: Partial<ToolDefinition> = {}) =>
  defineTool({ name: 'produce', description: 'Produces a value.', tier: 'read-only', parameters: noArgs, execute: () => value, ...extra } as ToolDefinition);

async function run(tool: ToolDefinition, options?: Parameters<typeof harnessWith>[2]) {
  const harness = await harnessWith([tool], undefined, options);
  return harness.executeToolCall({ id: 'c1', name: tool.name, arguments: {} });
}

describe('stage 4: createSuccessResult', () => {
  it('answers a value that breaks output.schema with INVALID_OUTPUT', async () => {
    const tool = returning({ count: 'three' }, { output: { schema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } } });
    const result = await run(tool);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
    if (!result.ok) expect(result.error.message).toContain('/count');
  });

  it('accepts a Standard Schema (zod) as output.schema', async () => {
    expect(await run(returning({ n: 1 }, { output: { schema: z.object({ n: z.number() }) } }))).toMatchObject({ ok: true });
    expect(await run(returning({ n: 'x' }, { output: { schema: z.object({ n: z.number() }) } }))).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
  });

  it('deep-freezes the value', async () => {
    const value = { list: [{ name: 'a' }], nested: { deeper: { x: 1 } } };
    const result = await run(returning(value));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const frozen = result.value as typeof value;
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(Object.isFrozen(frozen.list[0])).toBe(true);
    expect(Object.isFrozen(frozen.nested.deeper)).toBe(true);
    expect(() => {
      frozen.nested.deeper.x = 2;
    }).toThrow(TypeError);
  });

  it('renders a string as it is and anything else as pretty JSON', async () => {
    expect((await run(returning('plain text'))).content).toBe('plain text');
    expect((await run(returning({ a: [1, 2] }))).content).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect((await run(returning(42))).content).toBe('42');
  });

  it('never throws while rendering awkward values', async () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const awkward = { circular, big: 10n ** 20n, missing: undefined, fn: function helper() {}, when: new Set([1]), buffer: Buffer.from('hi') };
    const result = await run(returning(awkward));
    expect(result.ok).toBe(true);
    expect(result.content).toContain('"self": "[Circular]"');
    expect(result.content).toContain('"big": "100000000000000000000n"');
    expect(result.content).toContain('"fn": "[Function helper]"');
    expect(result.content).toContain('"buffer": "[Buffer 2 bytes]"');
    expect(result.content).not.toContain('missing');
    expect((await run(returning(undefined))).content).toBe('(no output)');
  });

  it('renders a value shared twice (not a cycle) in full both times', async () => {
    const shared = { id: 1 };
    const result = await run(returning({ a: shared, b: shared }));
    expect(JSON.parse(result.content)).toEqual({ a: { id: 1 }, b: { id: 1 } });
  });

  it('caps oversized content with a marker that says how much was left out', async () => {
    const result = await run(returning('x'.repeat(500)), { maxContentChars: 100 });
    expect(result.ok).toBe(true);
    // The marker counts against the cap: what the model reads is at most maxContentChars.
    expect(result.content.length).toBeLessThanOrEqual(100);
    expect(result.content.startsWith('x'.repeat(50))).toBe(true);
    const omitted = Number(/truncated: (\d+) more characters/.exec(result.content)?.[1]);
    expect(omitted + result.content.indexOf('\n')).toBe(500);
    if (result.ok) expect(result.value).toHaveLength(500);
  });

  it('uses a custom render, and a render that throws is INVALID_OUTPUT', async () => {
    const rows = [{ name: 'a', size: 1 }, { name: 'b', size: 2 }];
    const table = await run(returning(rows, { output: { render: (value: typeof rows) => value.map((row) => `${row.name}\t${row.size}`).join('\n') } }));
    expect(table).toMatchObject({ ok: true, content: 'a\t1\nb\t2', value: rows });
    const broken = await run(returning(rows, { output: { render: () => { throw new Error('no columns'); } } }));
    expect(broken).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
  });

  it('lets createSuccessResult taps replace the value (validated again) or add context', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;
    const harness = await harnessWith([returning({ n: 1 }, { output: { schema } })], (ctx) => {
      ctx.hooks.createSuccessResult.tap('doubler', (result) => (result.ok ? { action: 'replace', value: { n: (result.value as { n: number }).n * 2 } } : undefined));
      ctx.hooks.createSuccessResult.tap('annotator', () => ({ action: 'addContext', text: 'doubled' }));
    });
    const result = await harness.executeToolCall({ id: 'c1', name: 'produce', arguments: {} });
    expect(result).toMatchObject({ ok: true, value: { n: 2 }, context: ['doubled'] });
    expect(result.content).toBe('{\n  "n": 2\n}\n\ndoubled');

    const strict = await harnessWith([returning({ n: 1 }, { output: { schema } })], (ctx) => {
      ctx.hooks.createSuccessResult.tap('breaker', () => ({ action: 'replace', value: { n: 'two' } }));
    });
    expect(await strict.executeToolCall({ id: 'c2', name: 'produce', arguments: {} })).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
  });
});
