import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff-delay.js';

describe('backoffDelay', () => {
  it('doubles from 500 ms and stops at 8 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((retry) => backoffDelay(retry, () => 0))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('takes off at most 25% as jitter, and is never zero', () => {
    expect(backoffDelay(1, () => 0.999_999)).toBe(375);
    expect(backoffDelay(5, () => 0.5)).toBe(7_000);
    expect(backoffDelay(0, () => 0)).toBe(500);
    for (let i = 0; i < 200; i++) expect(backoffDelay(1 + (i % 8))).toBeGreaterThan(0);
  });
});
