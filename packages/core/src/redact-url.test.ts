import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('hides user, password and every query value; keeps the rest', () => {
    expect(redactUrl('https://alice:s3cret@mcp.example/mcp?api_key=sk-123&page=2#frag')).toBe('https://***:***@mcp.example/mcp?api_key=***&page=***');
    expect(redactUrl(new URL('http://127.0.0.1:8080/mcp'))).toBe('http://127.0.0.1:8080/mcp');
    expect(redactUrl('https://token@host/x')).toBe('https://***@host/x');
  });

  it('cuts text that is not a URL the same way', () => {
    const shown = redactUrl('https://bob:pa ss@host/v1?key=sk-9 9');
    expect(shown).not.toContain('pa ss');
    expect(shown).not.toContain('sk-9');
  });
});
