import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

function drain(reader: LineReader): unknown[] {
  const lines: unknown[] = [];
  for (let line = reader.readLine(); line !== undefined; line = reader.readLine()) lines.push(line);
  return lines;
}

describe('LineReader', () => {
  it('reads every whole line of a chunk, and keeps the unfinished end for the next', () => {
    const reader = new LineReader();
    reader.append(bytes('{"a":1}\n{"b":2}\n{"c"'));
    expect(drain(reader)).toEqual(['{"a":1}', '{"b":2}']);
    reader.append(bytes(':3}\n'));
    expect(drain(reader)).toEqual(['{"c":3}']);
    expect(reader.readLine()).toBeUndefined();
  });

  it('joins a line split over many chunks, multi-byte characters included, and drops a trailing \\r', () => {
    const reader = new LineReader();
    const line = bytes('{"text":"héllo ✓"}\r\n');
    for (const byte of line) reader.append(Buffer.from([byte]));
    expect(drain(reader)).toEqual(['{"text":"héllo ✓"}']);
  });

  it("keeps an empty line as an empty string, as the SDK's ReadBuffer does", () => {
    const reader = new LineReader();
    reader.append(bytes('\n{"a":1}\n'));
    expect(drain(reader)).toEqual(['', '{"a":1}']);
  });

  it('drops a line over the cap as it streams by, keeping its ends and size, and reads the next', () => {
    const reader = new LineReader(8);
    reader.append(bytes('ok\n12345'));
    expect(drain(reader)).toEqual(['ok']);
    reader.append(bytes('6789'));
    expect(drain(reader)).toEqual([]);
    reader.append(bytes('0abc\nnext\n'));
    expect(drain(reader)).toEqual([{ oversized: true, head: '123456789', tail: '1234567890abc', bytes: 13 }, 'next']);
    reader.append(bytes('0123456789\nafter\n'));
    expect(drain(reader)).toEqual([{ oversized: true, head: '0123456789', tail: '0123456789', bytes: 10 }, 'after']);
  });

  it('a chunk made of whole lines is read where it lies: the lines are its own bytes', () => {
    const reader = new LineReader();
    const chunk = bytes('{"a":1}\n');
    reader.append(chunk);
    chunk.write('{"z"', 0);
    expect(drain(reader)).toEqual(['{"z":1}']);
  });
});
