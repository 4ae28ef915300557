import { describe, expect, it } from 'vitest';
import { escapeForTerminal } from './escape-for-terminal.js';

describe('escapeForTerminal', () => {
  it.each([
    ['right-to-left override (docs/reliability.md row 40)', 'invoice\u202Etxt.exe', 'invoice\\u202Etxt.exe'],
    ['every bidi embedding and override', '\u202A\u202B\u202C\u202D\u202E', '\\u202A\\u202B\\u202C\\u202D\\u202E'],
    ['every bidi isolate', '\u2066\u2067\u2068\u2069', '\\u2066\\u2067\\u2068\\u2069'],
    ['bidi marks', '\u200E\u200F\u061C', '\\u200E\\u200F\\u061C'],
    ['zero-width characters', 'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFF', 'a\\u200Bb\\u200Cc\\u200Dd\\u2060e\\uFEFF'],
    ['an escape sequence', '\u001b[2J\u001b]0;title\u0007', '\\u001B[2J\\u001B]0;title\\u0007'],
    ['C1 controls and DEL', '\u009B\u0085\u007F', '\\u009B\\u0085\\u007F'],
    ['newline, return and tab', 'a\nb\rc\td', 'a\\nb\\rc\\td'],
    ['line and paragraph separators', '\u2028\u2029', '\\u2028\\u2029'],
    ['look-alike spaces', 'a\u00A0b\u3000c', 'a\\u00A0b\\u3000c'],
    ['tag characters (outside the BMP)', 'x\u{E0041}', 'x\\u{E0041}'],
    ['a lone surrogate', 'a\uD800b', 'a\\uD800b'],
    ['a soft hyphen and a blank filler', '\u00AD\u3164', '\\u00AD\\u3164'],
  ])('escapes %s', (_name, input, expected) => {
    expect(escapeForTerminal(input)).toBe(expected);
  });

  it('leaves visible text alone: spaces, backslashes, accents, other scripts, emoji', () => {
    const visible = 'src/a b\\c café Ελληνικά 日本語 👍🏽';
    expect(escapeForTerminal(visible)).toBe(visible);
  });

  it('leaves nothing invisible behind, whatever the input', () => {
    let all = '';
    for (let code = 0; code < 0x3000; code += 1) all += String.fromCharCode(code);
    const escaped = escapeForTerminal(all);
    expect(escaped).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
  });
});
