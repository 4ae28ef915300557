import { describe, expect, it } from 'vitest';
import { editText, numberedLines, plainPunctuation } from './edit-text.js';
import { detectIndentStyle } from './indent-style.js';

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
    expect(edit(tabs, '    if (x) {\n        return 1;\n    }', '    if (x) {\n        return 2;\n    }')).toMatchObject({ ok: true, kind: 'indentation', text: 'function f() {\n\tif (x) {\n\t\treturn 2;\n\t}\n}\n' });
    expect(edit('  a\n b\n  a\n', 'a', 'c')).toMatchObject({ ok: false, code: 'AMBIGUOUS_MATCH' });
    expect(edit(' k = 1\n\tk = 1\n', 'k = 1 ', 'k = 2')).toMatchObject({ ok: false, code: 'AMBIGUOUS_MATCH', detail: expect.stringContaining('2 times') });
  });

  it('treats curly quotes, dashes and no-break spaces as their plain forms, inside a line too', () => {
    expect(edit('say \u201chello\u201d \u2014 it\u2019s fine\n', 'say "hello" - it\'s', 'say "bye"')).toMatchObject({ ok: true, kind: 'quotes-and-dashes', text: 'say \u201cbye\u201d fine\n' });
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

describe("after a tolerant match, new_string is written in the file's style", () => {
  it('a tab-indented Python file gets tabs for every line, not a tab and four spaces', () => {
    const file = 'def f(x):\n\tif x:\n\t\treturn 1\n\treturn 0\n';
    const result = edit(file, '    if x:\n        return 1', '    if x:\n        y = x * 2\n        return y');
    expect(result).toMatchObject({ ok: true, kind: 'indentation', text: 'def f(x):\n\tif x:\n\t\ty = x * 2\n\t\treturn y\n\treturn 0\n' });
    expect(result.ok && result.style).toBe("new_string was re-indented to the file's tabs");
  });

  it('a 2-space file edited with 4 spaces gets 2 spaces per level', () => {
    const file = 'function f() {\n  if (x) {\n    return 1;\n  }\n}\n';
    const result = edit(file, '    if (x) {\n        return 1;\n    }', '    if (x) {\n        log(x);\n        return 2;\n    }');
    expect(result).toMatchObject({ ok: true, kind: 'indentation', text: 'function f() {\n  if (x) {\n    log(x);\n    return 2;\n  }\n}\n', style: "new_string was re-indented to the file's 2 spaces" });
  });

  it('a 4-space file edited with tabs gets 4 spaces per level', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    const result = edit(file, '\tdef f(self):\n\t\treturn 1', '\tdef f(self):\n\t\tif self.x:\n\t\t\treturn 2\n\t\treturn 1');
    expect(result).toMatchObject({ ok: true, text: 'class A:\n    def f(self):\n        if self.x:\n            return 2\n        return 1\n', style: "new_string was re-indented to the file's 4 spaces" });
  });

  it('keeps each line\'s depth relative to the first, deeper and shallower (mixed depths)', () => {
    const file = 'class A:\n\tdef f(self):\n\t\tif x:\n\t\t\treturn 1\n\t\treturn 0\n';
    const result = edit(file, '        if x:\n            return 1', '        if x:\n            return 1\n        return 0\n\n    def g(self):\n        return 2');
    expect(result).toMatchObject({ ok: true, text: 'class A:\n\tdef f(self):\n\t\tif x:\n\t\t\treturn 1\n\t\treturn 0\n\n\tdef g(self):\n\t\treturn 2\n\t\treturn 0\n' });
  });

  it('curly quotes in the file, straight in old_string: the quotes new_string adds are curly', () => {
    const file = 'She said \u201chello\u201d and it\u2019s late.\n';
    const result = edit(file, 'She said "hello" and it\'s late.', 'She said "goodbye" and it\'s early; don\'t wait.');
    expect(result).toMatchObject({ ok: true, kind: 'quotes-and-dashes', text: 'She said \u201cgoodbye\u201d and it\u2019s early; don\u2019t wait.\n' });
    expect(result.ok && result.style).toBe("new_string's quotes were written as the file writes them");
  });

  it('straight quotes in the file, curly in old_string: new_string gets straight ones', () => {
    const file = 'title = "Don\'t panic"\n';
    const result = edit(file, 'title = \u201cDon\u2019t panic\u201d', 'title = \u201cDon\u2019t panic, it\u2019s fine\u201d');
    expect(result).toMatchObject({ ok: true, kind: 'quotes-and-dashes', text: 'title = "Don\'t panic, it\'s fine"\n' });
  });

  it('a code line with straight delimiters around a curly apostrophe keeps both', () => {
    const result = edit("msg = 'It\u2019s done'\n", "msg = 'It's done'", "msg = 'It's finished'");
    expect(result).toMatchObject({ ok: true, text: "msg = 'It\u2019s finished'\n" });
  });

  it('where the file mixes tabs and spaces, new_string keeps its own relative indentation, and the result says so', () => {
    const file = 'a:\n\tb\n  c\n\td\n  e\n';
    const result = edit(file, '    b', '    b\n        b2');
    expect(result).toMatchObject({ ok: true, kind: 'indentation', text: 'a:\n\tb\n\t    b2\n  c\n\td\n  e\n' });
    expect(result.ok && result.style).toMatch(/could not be told/);
  });

  it('an exact match is written as given, whatever its style', () => {
    expect(edit('\tx = 1\n', '\tx = 1', '\tx = 1\n    y = 2')).toEqual({ ok: true, text: '\tx = 1\n    y = 2\n', replacements: 1, kind: 'exact', firstLine: 1, lastLine: 2 });
  });
});

describe('detectIndentStyle', () => {
  it.each([
    ['tabs', ['a', '\tb', '\t\tc', '\t * doc'], { kind: 'tab' }],
    ['2 spaces, with a JSDoc line one column in', ['a', '  b', '    c', '  /**', '   * d', '   */', '  e'], { kind: 'space', size: 2 }],
    ['4 spaces', ['a', '    b', '        c', '    d'], { kind: 'space', size: 4 }],
    ['nothing indented', ['a', 'b'], undefined],
    ['tabs and spaces half and half', ['a', '\tb', '  c'], undefined],
  ] as const)('%s', (_name, lines, style) => {
    expect(detectIndentStyle(lines)).toEqual(style);
  });
});

describe('numberedLines', () => {
  it('numbers lines like cat -n and clamps the range', () => {
    expect(numberedLines('a\r\nb\nc', 0, 9)).toBe('     1\ta\n     2\tb\n     3\tc');
  });
});
