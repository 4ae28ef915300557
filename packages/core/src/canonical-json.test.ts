import { describe, expect, it } from 'vitest';
import { argumentsHash, canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,1,{"y":2,"z":1}]},"b":1}');
  });

  it('gives equal text for equal values built in another key order', () => {
    expect(canonicalJson({ path: 'a', options: { force: true, mode: 1 } })).toBe(canonicalJson({ options: { mode: 1, force: true }, path: 'a' }));
  });

  it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ a: undefined, f: () => 1, n: Number.NaN, list: [undefined], d: new Date(0) })).toBe(
      '{"d":"1970-01-01T00:00:00.000Z","list":[null],"n":null}',
    );
  });

  it('escapes strings as JSON does', () => {
    expect(canonicalJson({ s: 'a"b\\c\n\u2028' })).toBe(JSON.stringify({ s: 'a"b\\c\n\u2028' }));
  });

  it('throws TypeError on a cycle, a BigInt and an undefined top-level value', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('accepts a value seen twice that is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('argumentsHash', () => {
  it('is a SHA-256 hex digest, equal for reordered keys and different for other values', () => {
    const hash = argumentsHash({ path: 'a.txt', content: 'x' });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(argumentsHash({ content: 'x', path: 'a.txt' })).toBe(hash);
    expect(argumentsHash({ content: 'y', path: 'a.txt' })).not.toBe(hash);
  });
});
