import { describe, expect, it } from 'vitest';
import { FsError } from '../fs-error.js';
import { LineMatcher } from './line-matcher.js';

const options = { maxMatches: 100, maxLineChars: 500, timeoutMs: 1000, display: '"f"' };

function compile(pattern: string, ignoreCase = false): LineMatcher {
  const matcher = LineMatcher.compile(pattern, ignoreCase);
  if (!(matcher instanceof LineMatcher)) throw new Error(matcher.message);
  return matcher;
}

describe('LineMatcher', () => {
  it('returns matching lines with 1-based numbers, without line endings', () => {
    expect(compile('b').match('a\r\nb\r\nab\n\nb', options)).toEqual([
      { line: 2, text: 'b' },
      { line: 3, text: 'ab' },
      { line: 5, text: 'b' },
    ]);
  });

  it('anchors per line, and ignores case when asked', () => {
    expect(compile('^x$').match('x\nxx\nX', options)).toEqual([{ line: 1, text: 'x' }]);
    expect(compile('^x$', true).match('x\nxx\nX', options)).toEqual([
      { line: 1, text: 'x' },
      { line: 3, text: 'X' },
    ]);
  });

  it('stops at maxMatches and cuts long lines', () => {
    expect(compile('a').match('a\na\na', { ...options, maxMatches: 2 })).toHaveLength(2);
    expect(compile('a').match('abcdef', { ...options, maxLineChars: 3 })).toEqual([{ line: 1, text: 'abc [...]' }]);
  });

  it('refuses invalid and oversized patterns without throwing', () => {
    expect(LineMatcher.compile('(', false)).toMatchObject({ ok: false, code: 'INVALID_PATTERN' });
    expect(LineMatcher.compile('', false)).toMatchObject({ ok: false, code: 'INVALID_PATTERN' });
    expect(LineMatcher.compile(3, false)).toMatchObject({ ok: false, code: 'INVALID_PATTERN' });
    expect(LineMatcher.compile('a'.repeat(1001), false)).toMatchObject({ ok: false, code: 'INVALID_PATTERN' });
  });

  it('interrupts catastrophic backtracking within the time budget', () => {
    const started = Date.now();
    const matcher = compile('^(a+)+$');
    let caught: unknown;
    try {
      matcher.match(`${'a'.repeat(40)}!`, { ...options, timeoutMs: 100 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FsError);
    expect(caught).toMatchObject({ code: 'PATTERN_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
    // The shared context still works afterwards.
    expect(compile('ok').match('ok', options)).toEqual([{ line: 1, text: 'ok' }]);
  });
});

describe('LineMatcher options', () => {
  it('matches fixed strings literally and multi-line patterns across lines', () => {
    const fixed = LineMatcher.compile('a.b(', false, { fixed: true });
    if (!(fixed instanceof LineMatcher)) throw new Error('compile');
    expect(fixed.match('axb(\na.b(\n', options)).toEqual([{ line: 2, text: 'a.b(' }]);
    const multi = LineMatcher.compile('start\\n\\s*end', false, { multiline: true });
    if (!(multi instanceof LineMatcher)) throw new Error('compile');
    expect(multi.match('x\nstart\n  end\nstart end\n', options)).toEqual([{ line: 2, text: 'start', endLine: 3 }]);
    expect(multi.match('end\nstart\nend', options)).toEqual([{ line: 2, text: 'start', endLine: 3 }]);
  });
});

describe('LineMatcher.matchAll', () => {
  const batch = { maxMatches: 100, maxLineChars: 500, timeoutMs: 1000, displays: ['"a"', '"b"', '"c"'] };

  it('scans many texts in one run, with caps per text, in all, and on texts with matches', () => {
    const matcher = compile('x');
    expect(matcher.matchAll(['x\ny\nx', 'none', 'x'], batch)).toEqual([[{ line: 1, text: 'x' }, { line: 3, text: 'x' }], [], [{ line: 1, text: 'x' }]]);
    expect(matcher.matchAll(['x\nx\nx', 'x\nx'], { ...batch, maxMatches: 2 }).map((found) => found.length)).toEqual([2, 2]);
    expect(matcher.matchAll(['x\nx\nx', 'x\nx'], { ...batch, maxTotal: 4 }).map((found) => found.length)).toEqual([3, 1]);
    expect(matcher.matchAll(['x', 'none', 'x', 'x'], { ...batch, maxFiles: 2, displays: ['"a"', '"b"', '"c"', '"d"'] }).map((found) => found.length)).toEqual([1, 0, 1, 0]);
  });

  it('keeps the time budget per text: a batch that runs out is scanned again text by text, and the slow one is named', () => {
    const matcher = compile('^(a+)+$');
    const started = Date.now();
    let caught: unknown;
    try {
      matcher.matchAll(['aaa', `${'a'.repeat(40)}!`, 'aa'], { ...batch, timeoutMs: 100 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'PATTERN_TIMEOUT', message: expect.stringContaining('"b"') });
    expect(Date.now() - started).toBeLessThan(3000);
    // Texts that are each within the budget pass, whatever the batch takes in all.
    expect(compile('a').matchAll(['a', 'b', 'a'], { ...batch, timeoutMs: 100 })).toEqual([[{ line: 1, text: 'a' }], [], [{ line: 1, text: 'a' }]]);
  });
});

describe('LineMatcher with a required literal', () => {
  it('tests only the lines that hold the literal, and finds the same lines as a scan of every line', () => {
    const text = 'foo bar\r\nbar\nxfoo\n\nfoo\nFOO baz\nfoofoo bar\nfo\no';
    for (const [pattern, ignoreCase] of [['foo', false], ['^foo', false], ['foo$', false], ['fo+\\s?ba', false], ['foo', true], ['\\bfoo\\b', true], ['oo.f', false], ['x?foo.*bar$', false]] as const) {
      const matcher = compile(pattern, ignoreCase);
      expect(matcher.literal).toBeDefined();
      const expected = text
        .split('\n')
        .map((line, index) => ({ line: index + 1, text: line.replace(/\r$/, '') }))
        .filter((line) => new RegExp(pattern, ignoreCase ? 'i' : '').test(line.text));
      expect(matcher.match(text, options)).toEqual(expected);
    }
    expect(compile('foo').match('foo', options)).toEqual([{ line: 1, text: 'foo' }]);
    expect(compile('foo').match('\nfoo\n', options)).toEqual([{ line: 2, text: 'foo' }]);
    expect(compile('a.b', false).literal).toBeUndefined();
  });
});
