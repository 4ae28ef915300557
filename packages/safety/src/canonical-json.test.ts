import { describe, expect, it } from 'vitest';
import { argumentsHash, canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth, so key order does not change the text', () => {
    const a = { path: 'a', options: { b: 1, a: [{ y: 2, x: 1 }] } };
    const b = { options: { a: [{ x: 1, y: 2 }], b: 1 }, path: 'a' };
    expect(canonicalJson(a)).toBe('{"options":{"a":[{"x":1,"y":2}],"b":1},"path":"a"}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(argumentsHash(b)).toBe(argumentsHash(a));
  });

  it('keeps array order, and different values give different hashes', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(argumentsHash({ path: '.env' })).not.toBe(argumentsHash({ path: '.env ' }));
    expect(argumentsHash({ path: 'a' })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('follows JSON.stringify for undefined, non-finite numbers and strings that need escapes', () => {
    expect(canonicalJson({ a: undefined, b: [undefined], c: Number.NaN })).toBe('{"b":[null],"c":null}');
    expect(canonicalJson('a"\u202E\n')).toBe(JSON.stringify('a"\u202E\n'));
  });

  it('throws on a cycle and on a BigInt instead of binding a decision to something partial', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
