import { describe, expect, it } from 'vitest';
import { isSafetyMode, modeDecision, SAFETY_MODES } from './safety-mode.js';

describe('modeDecision', () => {
  it.each([
    ['read-only', 'read-only', 'allow'],
    ['read-only', 'write', 'deny'],
    ['read-only', 'dangerous', 'deny'],
    ['ask', 'read-only', 'allow'],
    ['ask', 'write', 'ask'],
    ['ask', 'dangerous', 'ask'],
    ['auto', 'read-only', 'allow'],
    ['auto', 'write', 'allow'],
    ['auto', 'dangerous', 'ask'],
    ['allow-all-unsafe', 'read-only', 'allow'],
    ['allow-all-unsafe', 'write', 'allow'],
    ['allow-all-unsafe', 'dangerous', 'allow'],
  ] as const)('mode %s, tier %s: %s', (mode, tier, expected) => {
    expect(modeDecision(mode, tier)).toBe(expected);
  });

  it('treats an unknown tier as dangerous', () => {
    expect(modeDecision('auto', 'weird' as never)).toBe('ask');
    expect(modeDecision('read-only', 'weird' as never)).toBe('deny');
  });

  it('knows exactly the four modes', () => {
    expect(SAFETY_MODES).toEqual(['read-only', 'ask', 'auto', 'allow-all-unsafe']);
    expect(isSafetyMode('ask')).toBe(true);
    expect(isSafetyMode('yolo')).toBe(false);
    expect(isSafetyMode(undefined)).toBe(false);
  });
});
