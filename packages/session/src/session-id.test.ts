import { describe, expect, it } from 'vitest';
import { assertSessionId, createSessionId, isValidSessionId } from './session-id.js';

describe('session ids', () => {
  it.each(['a', 'A-z_0-9', 'x'.repeat(128), '0190f5e2-7a3b-7c4d-8e5f-123456789abc'])('accepts %s', (id) => {
    expect(isValidSessionId(id)).toBe(true);
  });

  it.each(['', '.', '..', '../x', 'a/b', 'a\\b', 'a.jsonl', 'x'.repeat(129), 'a b', 'a\u0000b', 'é', 'C:x', '~x'])('refuses %j', (id) => {
    expect(isValidSessionId(id)).toBe(false);
    expect(() => assertSessionId(id)).toThrow(expect.objectContaining({ code: 'INVALID_SESSION_ID' }));
  });

  it('refuses non-strings', () => {
    expect(isValidSessionId(42)).toBe(false);
    expect(() => assertSessionId(undefined)).toThrow(expect.objectContaining({ code: 'INVALID_SESSION_ID' }));
  });

  it('creates valid UUID v7 ids that sort by creation time', () => {
    const early = createSessionId(Date.UTC(2024, 0, 1));
    const late = createSessionId(Date.UTC(2025, 0, 1));
    expect(early).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isValidSessionId(early)).toBe(true);
    expect(early < late).toBe(true);
    expect(early.replaceAll('-', '').slice(0, 12)).toBe(Date.UTC(2024, 0, 1).toString(16).padStart(12, '0'));
  });

  it('creates distinct ids within one millisecond', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createSessionId(0)));
    expect(ids.size).toBe(1000);
  });
});
