import { describe, expect, it } from 'vitest';
import { parseDuration } from './parse-duration.js';

describe('parseDuration', () => {
  it.each([
    ['6.4s', 6_400],
    ['340ms', 340],
    ['1m30s', 90_000],
    ['1h2m3.5s', 3_723_500],
    ['2', 2_000],
    ['0', 0],
  ])('%s -> %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '-1', 'soon', '5 s', '1m30', 's'])('%j -> undefined', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
