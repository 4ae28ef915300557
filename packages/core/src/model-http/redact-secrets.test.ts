import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret', () => {
    expect(redactSecrets('key sk-abcdef and again sk-abcdef, token tok-123456', ['sk-abcdef', 'tok-123456'])).toBe('key [redacted] and again [redacted], token [redacted]');
  });

  it('ignores secrets too short to be told from words', () => {
    expect(redactSecrets('a key', ['', 'a', 'key'])).toBe('a key');
  });
});
