import { describe, expect, it } from 'vitest';
import { retryHint } from './retry-hint.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const hint = (headers: Record<string, string>) => retryHint(new Headers(headers), NOW);

describe('retryHint', () => {
  it('prefers retry-after-ms, then retry-after seconds, then an HTTP date', () => {
    expect(hint({ 'retry-after-ms': '1500.5', 'retry-after': '9' })).toBe(1_501);
    expect(hint({ 'retry-after': '7' })).toBe(7_000);
    expect(hint({ 'retry-after': '0.25' })).toBe(250);
    expect(hint({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' })).toBe(5_000);
  });

  it('falls back to the reset of an exhausted rate limit', () => {
    expect(hint({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6.4s', 'x-ratelimit-remaining-tokens': '1520', 'x-ratelimit-reset-tokens': '340ms' })).toBe(6_400);
    expect(hint({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '6.4s' })).toBeUndefined();
  });

  it.each([
    [{ 'retry-after': '-1' }],
    [{ 'retry-after': '0' }],
    [{ 'retry-after-ms': '-5' }],
    [{ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }],
    [{ 'retry-after': 'later' }],
    [{ 'x-ratelimit-limit-tokens': '-1', 'x-ratelimit-remaining-tokens': '-1', 'x-ratelimit-reset-tokens': '0' }],
    [{ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '0' }],
    [{}],
  ])('gives no hint for %j (zero, negative, past or unparsable)', (headers) => {
    expect(hint(headers)).toBeUndefined();
  });
});
