import { expect, it } from 'vitest';
import { printableName } from './printable-name.js';

it('escapes control, bidi and invisible characters and nothing else', () => {
  expect(printableName('plain/caf\u00e9.md')).toBe('plain/caf\u00e9.md');
  expect(printableName('invoice\u202etxt.exe')).toBe('invoice\\u{202E}txt.exe');
  expect(printableName('a\nb\u0000c\u200bd\ufeff')).toBe('a\\u{A}b\\u{0}c\\u{200B}d\\u{FEFF}');
});
