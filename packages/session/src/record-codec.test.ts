import { describe, expect, it } from 'vitest';
import { decodeLine, encodeRecord } from './record-codec.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('encodeRecord', () => {
  it('writes one line: JSON and a single trailing "\\n"', () => {
    const line = text(encodeRecord({ content: 'a\nb\r\nc\u0000d' }));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(JSON.parse(line)).toEqual({ content: 'a\nb\r\nc\u0000d' });
  });

  it('escapes U+2028 and U+2029 so no line splitter breaks the line, and reads them back', () => {
    const value = { content: 'x\u2028y\u2029z' };
    const line = text(encodeRecord(value));
    expect(line).not.toMatch(/[\u2028\u2029]/);
    expect(line).toContain('\\u2028');
    expect(line).toContain('\\u2029');
    expect(JSON.parse(line)).toEqual(value);
  });

  it('keeps emoji and other non-ASCII text as UTF-8', () => {
    const value = { content: '😀 👩‍💻 café 漢字' };
    const bytes = encodeRecord(value);
    expect(text(bytes)).toContain('😀');
    expect(decodeLine(bytes.subarray(0, -1))).toEqual({ ok: true, value });
  });

  it('throws TypeError on a value JSON cannot hold', () => {
    expect(() => encodeRecord({ n: 1n })).toThrow(TypeError);
  });
});

describe('decodeLine', () => {
  it('refuses invalid UTF-8 instead of replacing it', () => {
    expect(decodeLine(Uint8Array.from([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, reason: 'invalid UTF-8' });
  });

  it('names NUL bytes as the reason a line does not parse', () => {
    expect(decodeLine(new Uint8Array(8))).toEqual({ ok: false, reason: 'NUL bytes in the line' });
  });

  it('refuses a fragment', () => {
    expect(decodeLine(Buffer.from('{"a":'))).toEqual({ ok: false, reason: 'not valid JSON' });
  });
});
