import { describe, expect, it } from 'vitest';
import { windowOfText } from './line-window.js';

const bounds = { offset: 1, limit: 2000, maxLineChars: 2000, maxBytes: 80_000 };

describe('windowOfText', () => {
  it('returns at most limit lines of a 2,000-line file and counts them all', () => {
    const text = Array.from({ length: 2500 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
    const read = windowOfText(text, bounds);
    expect(read.lines).toHaveLength(2000);
    expect(read).toMatchObject({ startLine: 1, endLine: 2000, totalLines: 2500, more: true });
    expect(read.lines[1999]).toEqual({ number: 2000, text: 'line 2000' });
    expect(windowOfText(text, { ...bounds, offset: 2001 })).toMatchObject({ endLine: 2500, totalLines: 2500, more: false });
  });

  it('stops at the byte budget before a line that does not fit', () => {
    const text = `${'a'.repeat(50)}\n`.repeat(100);
    const read = windowOfText(text, { ...bounds, maxBytes: 290 });
    expect(read).toMatchObject({ endLine: 5, totalLines: 100, more: true });
  });

  it('cuts a 2 MB one-line file to maxLineChars', () => {
    const read = windowOfText('x'.repeat(2 * 1024 * 1024), bounds);
    expect(read.lines).toEqual([{ number: 1, text: 'x'.repeat(2000), cutFrom: 2 * 1024 * 1024 }]);
    expect(read).toMatchObject({ endLine: 1, totalLines: 1, more: false });
  });

  it('takes the carriage return off CRLF lines and knows the end without a final newline', () => {
    expect(windowOfText('a\r\nb', bounds)).toMatchObject({ lines: [{ text: 'a' }, { text: 'b' }], totalLines: 2, more: false });
    expect(windowOfText('1\n2\n', { ...bounds, offset: 5 })).toMatchObject({ lines: [], endLine: 4, totalLines: 2, more: false });
    expect(windowOfText('', bounds)).toMatchObject({ lines: [], totalLines: 0 });
  });
});
