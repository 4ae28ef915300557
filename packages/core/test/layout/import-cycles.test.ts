import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, importGraph } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

describe('the import graph of packages/core/src', () => {
  const graph = importGraph(SRC);

  it('has no circle, type-only imports included', () => {
    expect(findCycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('is read in full (the check is not vacuous)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('index.ts')).toContain('harness.ts');
    // A type-only import is an edge: the agent loop's session recorder imports the Session type.
    expect(graph.get('agent/session-recorder.ts')).toContain('agent/session.ts');
  });

  it('finds a circle when there is one, type-only or through a chain', () => {
    const circle = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findCycles(circle)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(findCycles(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts', 'a.ts']]);
    expect(findCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });
});
