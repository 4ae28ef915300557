import { describe, expect, it } from 'vitest';
import { checkPathSyntax } from './check-path-syntax.js';

describe('checkPathSyntax', () => {
  it.each([
    ['src/a.ts'],
    ['.'],
    ['/abs/path/file.txt'],
    ['$HOME/literal'],
    ['%2e%2e/literal'],
    ['caf\u00e9.md'],
    ['\uff0e\uff0e\uff0fetc'],
    ['a/~b'],
    ['name with spaces.txt'],
    [`${'a'.repeat(255)}`],
  ])('accepts %j (taken literally)', (input) => {
    expect(checkPathSyntax(input)).toBeUndefined();
  });

  it.each([
    [42, /must be a string/],
    [null, /null/],
    ['', /empty/],
    ['  \t ', /empty/],
    ['a\u0000b', /NUL/],
    ['a\nb', /control/],
    ['a\u007fb', /control/],
    ['a\u0085b', /control/],
    ['invoice\u202etxt.exe', /invisible/],
    ['a\u200bb', /invisible/],
    ['\ufeffa', /invisible/],
    ['file:///etc/passwd', /URI/],
    ['https://example.com/x', /URI/],
    ['~', /home/],
    ['~/.ssh/id_ed25519', /home/],
    ['~root/.profile', /home/],
    ['C:\\x', /Windows drive/],
    ['a\\b', /backslash/],
    ['a'.repeat(4097), /4096 bytes/],
    ['\u00e9'.repeat(2049), /4096 bytes/],
    [`${'a'.repeat(256)}`, /255 bytes/],
  ])('refuses %j with INVALID_PATH', (input, message) => {
    const refused = checkPathSyntax(input);
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_PATH' });
    expect(refused?.message).toMatch(message);
  });

  it('quotes the input with escapes, so a message cannot be forged by the path', () => {
    expect(checkPathSyntax('a\nb')?.message).toContain('"a\\nb"');
  });
});
