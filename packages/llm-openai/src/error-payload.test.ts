import { describe, expect, it } from 'vitest';
import { isErrorPayload, statusNamedBy } from './error-payload.js';

describe('isErrorPayload', () => {
  it.each([
    [{ object: 'error', message: 'm', code: 400 }, true],
    [{ error: { message: 'm' } }, true],
    [{ error: 'Model not loaded' }, true],
    [{ error: null, choices: [] }, false],
    [{ object: 'chat.completion.chunk', choices: [] }, false],
    ['error', false],
  ])('%j -> %s', (value, expected) => {
    expect(isErrorPayload(value)).toBe(expected);
  });
});

describe('statusNamedBy', () => {
  it('reads status_code, status or code, nested first, then at the top level', () => {
    expect(statusNamedBy({ error: { status_code: 400, code: 'tool_use_failed' } })).toBe(400);
    expect(statusNamedBy({ error: { code: 502 } })).toBe(502);
    expect(statusNamedBy({ object: 'error', message: 'm', code: 400 })).toBe(400);
    expect(statusNamedBy({ error: { message: 'm' }, status: 429 })).toBe(429);
  });

  it('names nothing for codes that are not statuses', () => {
    expect(statusNamedBy({ error: { code: 'context_length_exceeded' } })).toBeUndefined();
    expect(statusNamedBy({ object: 'error', code: 200 })).toBeUndefined();
  });
});
