import { describe, expect, it } from 'vitest';
import { checkCallOptions, mergeCallOptions } from './merge-call-options.js';

describe('mergeCallOptions', () => {
  it("lays a step's options over the agent's, field by field", () => {
    expect(mergeCallOptions(undefined, undefined)).toBeUndefined();
    expect(mergeCallOptions({ temperature: 0 }, undefined)).toEqual({ temperature: 0 });
    expect(mergeCallOptions({ temperature: 0, maxOutputTokens: 100 }, { maxOutputTokens: 50, toolChoice: 'required' })).toEqual({ temperature: 0, maxOutputTokens: 50, toolChoice: 'required' });
  });
});

describe('checkCallOptions', () => {
  it('accepts every documented option', () => {
    const options = { maxOutputTokens: 1024, temperature: 0.5, reasoning: { budgetTokens: 2048 }, toolChoice: { name: 'read_file' }, cache: { breakpoints: ['tools', 'system', { message: 3 }], ttl: '1h' } } as const;
    expect(checkCallOptions(options, 'o')).toBe(options);
    expect(checkCallOptions({ reasoning: 'high', toolChoice: 'none', cache: 'off' }, 'o')).toBeTruthy();
  });

  it.each([
    [{ maxTokens: 5 }, 'unknown option "maxTokens"'],
    [{ maxOutputTokens: 0 }, 'maxOutputTokens'],
    [{ temperature: -1 }, 'temperature'],
    [{ reasoning: 'max' }, 'reasoning'],
    [{ reasoning: { budgetTokens: 1.5 } }, 'reasoning'],
    [{ toolChoice: { name: '' } }, 'toolChoice'],
    [{ cache: { breakpoints: [{ message: -1 }] } }, 'cache'],
    [{ cache: 'on' }, 'cache'],
  ])('refuses %j in one line naming the option', (options, named) => {
    expect(() => checkCallOptions(options, 'createAgent: modelOptions')).toThrow(new RegExp(named));
  });
});
