import { describe, expect, it } from 'vitest';
import { newCallKey } from './call-key.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newCallKey', () => {
  it('makes UUIDv7 strings, unique and time-ordered', () => {
    const keys = Array.from({ length: 5_000 }, () => newCallKey());
    for (const key of keys) expect(key).toMatch(UUID_V7);
    expect(new Set(keys).size).toBe(keys.length);
    const times = keys.map((key) => parseInt(key.replace(/-/g, '').slice(0, 12), 16));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Math.abs(times.at(-1)! - Date.now())).toBeLessThan(5_000);
  });

  it('stays unique and ordered past 4,096 keys in one millisecond (the counter moves on to the next)', () => {
    const keys = Array.from({ length: 20_000 }, () => newCallKey());
    expect(new Set(keys).size).toBe(keys.length);
    // Within a millisecond the counter orders them: the keys sort as they were made.
    expect([...keys].sort()).toEqual(keys);
  });
});
