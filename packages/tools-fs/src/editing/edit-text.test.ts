import { describe, expect, it } from 'vitest';
import { editText, numberedLines, plainPunctuation } from './edit-text.js';

const edit = (text: string, oldString: string, newString: string, replaceAll = false, eol: '\n' | '\r\n' = '\n') => editText(text, { oldString, newString, replaceAll }, eol);

describe('editText', () => {
  it('replaces an exact, unique match and says which lines it covers', () => {
    expect(edit('a\nb\nc\n', 'b', 'B\nB2')).toEqual({ ok: true, text: 'a\nB\nB2\nc\n', replacements: 1, kind: 'exact', firstLine: 2, lastLine: 3 });
  });

  it('matches across CRLF with an LF old_string and writes the new lines in CRLF, leaving other lines alone', () => {
    const result = edit('one\r\ntwo\r\nthree\nfour\r\n', 'two\nthree', 'TWO\nTHREE', false, '\r\n');
    expect(result).toMatchObject({ ok: true, kind: 'exact', text: 'one\r\nTWO\r\nTHREE\nfour\r\n' });
  });

  it('refuses an ambiguous exact match with the lines, unless replace_all', () => {
    expect(edit('x\ny\nx\n', 'x', 'z')).toMatchObject({ ok: false, code: 'AMBIGUOUS_MATCH', detail: expect.stringContaining('at lines 1, 3') });
    expect(edit('x\ny\nx\n', 'x', 'z', true)).toMatchObject({ ok: true, text: 'z\ny\nz\n', replacements: 2 });
  });

  it('falls back to ignoring trailing whitespace, then indentation (re-indenting new_string), only when unique', () => {
    expect(edit('if (a) {  \n  run();\n}\n', 'if (a) {\n  run();', 'if (b) {\n  run();')).toMatchObject({ ok: true, kind: 'trailing-whitespace', text: 'if (b) {\n  run();\n}\n' });
    const tabs = 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
    expect(edit(tabs, '    if (x) {\n        return 1;\n    }', '    if (x) {\n        return 2;\n    }')).toMatchObject({ ok: true, kind: 'indentation', text: 'function f() {\n\tif (x) {\n\t    return 2;\n\t}\n}\n' });
    expect(edit('  a\n b\n  a\n', 'a', 'c')).toMatchObject({ ok: false, code: 'AMBIGUOUS_MATCH' });
    expect(edit(' k = 1\n\tk = 1\n', 'k = 1 ', 'k = 2')).toMatchObject({ ok: false, code: 'AMBIGUOUS_MATCH', detail: expect.stringContaining('2 times') });
  });

  it('treats curly quotes, dashes and no-break spaces as their plain forms, inside a line too', () => {
    expect(edit('say \u201chello\u201d \u2014 it\u2019s fine\n', 'say "hello" - it\'s', 'say "bye"')).toMatchObject({ ok: true, kind: 'quotes-and-dashes', text: 'say "bye" fine\n' });
    expect(plainPunctuation('\u2018a\u2019 \u2013 b\u00a0c')).toBe("'a' - b c");
  });

  it('shows the closest lines with numbers and where they differ when nothing matches', () => {
    const file = 'import x;\n\nfunction main() {\n  return compute(1, 2);\n}\n';
    const result = edit(file, 'function main() {\n  return compute(1, 3);\n}', 'x');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('NO_MATCH');
    expect(result.detail).toContain('     3\tfunction main() {');
    expect(result.detail).toContain('     4\t  return compute(1, 2);');
    expect(result.detail).toMatch(/Line 4 of the file differs from line 2 of old_string at column 21/);
  });

  it('says so when no line is close at all', () => {
    expect(edit('abc\n', 'zzzzzz', 'y')).toMatchObject({ ok: false, code: 'NO_MATCH', detail: expect.stringContaining('no line of the file is close') });
  });

  it('keeps "$&" literal and drops a byte-order mark a model copied into old_string', () => {
    expect(edit('price: X\n', '\ufeffprice: X', '$& $1')).toMatchObject({ ok: true, text: '$& $1\n' });
  });
});

describe('numberedLines', () => {
  it('numbers lines like cat -n and clamps the range', () => {
    expect(numberedLines('a\r\nb\nc', 0, 9)).toBe('     1\ta\n     2\tb\n     3\tc');
  });
});
