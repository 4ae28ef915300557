import { describe, expect, it } from 'vitest';
import { defineTool } from '@weir/core';
import { harnessWith } from '../support.js';

const tool = (execute: () => unknown) => defineTool({ name: 'give', description: 'Returns a value.', tier: 'read-only', parameters: { type: 'object' }, execute });

describe("freeze a snapshot, never the tool's own objects", () => {
  it('a tool that returns its own cache works on every call, and its cache stays its own', async () => {
    const cache = { hits: 0, items: [1, 2] };
    const harness = await harnessWith([tool(() => {
      cache.hits += 1;
      cache.items.push(cache.hits);
      return cache;
    })]);
    const first = await harness.executeToolCall({ id: 'a', name: 'give', arguments: {} });
    const second = await harness.executeToolCall({ id: 'b', name: 'give', arguments: {} });
    expect(first).toMatchObject({ ok: true, value: { hits: 1, items: [1, 2, 1] } });
    expect(second).toMatchObject({ ok: true, value: { hits: 2, items: [1, 2, 1, 2] } });
    expect(Object.isFrozen(cache)).toBe(false);
    if (first.ok) expect(Object.isFrozen(first.value)).toBe(true);
  });

  it('a returned class instance is not frozen for the process, and its prototype is never touched', async () => {
    class Point {
      constructor(public x: number) {}
      norm() {
        return Math.abs(this.x);
      }
    }
    const point = new Point(-3);
    const harness = await harnessWith([tool(() => point)]);
    const result = await harness.executeToolCall({ id: 'a', name: 'give', arguments: {} });
    expect(result).toMatchObject({ ok: true, value: { x: -3 } });
    expect(Object.isFrozen(point)).toBe(false);
    expect(Object.isFrozen(Point.prototype)).toBe(false);
    point.x = 5;
    expect(point.norm()).toBe(5);
  });

  it('Map, Set and typed arrays in the snapshot are immutable, and the originals stay the tool’s', async () => {
    const map = new Map([['k', 1]]);
    const set = new Set([1]);
    const bytes = new Uint8Array([1, 2, 3]);
    const harness = await harnessWith([tool(() => ({ map, set, bytes }))]);
    const result = await harness.executeToolCall({ id: 'a', name: 'give', arguments: {} });
    if (!result.ok) throw new Error('expected a success');
    const value = result.value as { map: Map<string, number>; set: Set<number>; bytes: Uint8Array };
    expect(value.map.get('k')).toBe(1);
    expect(() => value.map.set('k', 2)).toThrow(TypeError);
    expect(() => value.set.add(2)).toThrow(TypeError);
    expect(() => {
      value.bytes[0] = 9;
    }).toThrow(TypeError);
    expect(() => value.bytes.fill(0)).toThrow(TypeError);
    expect([...value.bytes]).toEqual([1, 2, 3]);
    map.set('k', 2);
    set.add(2);
    bytes[0] = 9;
    expect(value.map.get('k')).toBe(1);
    expect(value.set.has(2)).toBe(false);
    expect(value.bytes[0]).toBe(1);
  });

  it('result.context is frozen after addContext', async () => {
    const harness = await harnessWith([tool(() => 'v')], (ctx) => {
      ctx.hooks.postExecute.tap('notes', () => ({ action: 'addContext', text: 'a note' }));
    });
    const result = await harness.executeToolCall({ id: 'a', name: 'give', arguments: {} });
    expect(result.context).toEqual(['a note']);
    expect(Object.isFrozen(result.context)).toBe(true);
  });

  it("the registry's model view is a deep-frozen snapshot: editing it cannot desync it from validation", async () => {
    const harness = await harnessWith([defineTool({
      name: 'typed',
      description: 'Takes a number.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      execute: ({ n }) => n,
    })]);
    const [schema] = harness.tools.schemas();
    const properties = (schema!.parameters as { properties: Record<string, { type: string }> }).properties;
    expect(Object.isFrozen(properties)).toBe(true);
    expect(() => {
      properties.n!.type = 'string';
    }).toThrow(TypeError);
    expect(await harness.executeToolCall({ id: 'a', name: 'typed', arguments: { n: 'x' } })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});
