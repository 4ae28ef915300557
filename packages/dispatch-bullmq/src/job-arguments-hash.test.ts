import { describe, expect, it } from 'vitest';
import { argumentsHash } from '@weir/core';
import { jobArgumentsHash } from './job-arguments-hash.js';

describe('jobArgumentsHash', () => {
  it('is the core argumentsHash, for any key order and nesting', () => {
    for (const args of [{}, { text: 't1' }, { b: [1, { y: null, x: 'é' }], a: true, n: 1.5 }, { z: { nested: { deep: ['a', 2] } }, skipped: undefined }]) {
      expect(jobArgumentsHash(args)).toBe(argumentsHash(args));
    }
    expect(jobArgumentsHash({ a: 1, b: 2 })).toBe(jobArgumentsHash({ b: 2, a: 1 }));
    expect(jobArgumentsHash({ a: 1 })).not.toBe(jobArgumentsHash({ a: 2 }));
  });

  it('throws like the core on what JSON cannot hold', () => {
    expect(() => jobArgumentsHash({ n: 1n })).toThrow(TypeError);
  });
});
