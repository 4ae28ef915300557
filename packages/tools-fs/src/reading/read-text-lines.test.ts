import { mkdtemp, open, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTextLines, type ReadLinesOptions } from './read-text-lines.js';

let base: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-lines-')));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function lines(content: string | Uint8Array, options: Partial<ReadLinesOptions> = {}) {
  const file = path.join(base, 'f');
  await writeFile(file, content);
  const handle = await open(file, 'r');
  try {
    return await readTextLines(handle, { offset: 1, limit: Number.POSITIVE_INFINITY, maxLineChars: 2000, maxBytes: 1_000_000, maxScanBytes: 10_000_000, display: '"f"', ...options });
  } finally {
    await handle.close();
  }
}

const texts = (read: { lines: readonly { text: string }[] }) => read.lines.map((line) => line.text);

describe('readTextLines (streaming, for files too large to hold)', () => {
  it('reads everything, counting lines with or without a final newline, CRLF taken off', async () => {
    expect(await lines('a\r\nb\n')).toMatchObject({ startLine: 1, endLine: 2, totalLines: 2, more: false, encoding: 'utf-8' });
    expect(texts(await lines('a\r\nb\n'))).toEqual(['a', 'b']);
    expect(await lines('a\nb')).toMatchObject({ endLine: 2, totalLines: 2 });
    expect(await lines('')).toMatchObject({ lines: [], endLine: 0, totalLines: 0, more: false });
  });

  it('returns a window of lines and knows whether more follow', async () => {
    expect(await lines('1\n2\n3\n', { offset: 2, limit: 1 })).toMatchObject({ lines: [{ number: 2, text: '2' }], endLine: 2, totalLines: undefined, more: true });
    expect(await lines('1\n2\n3\n', { offset: 3, limit: 1 })).toMatchObject({ endLine: 3, more: false });
    expect(await lines('1\n2\n3', { offset: 3, limit: 5 })).toMatchObject({ endLine: 3, totalLines: 3, more: false });
    expect(await lines('1\n2\n', { offset: 7 })).toMatchObject({ lines: [], startLine: 7, endLine: 6, totalLines: 2, more: false });
  });

  it('knows the end exactly when the last wanted line ends on a chunk boundary', async () => {
    const line = `${'x'.repeat(65_535)}\n`;
    expect(await lines(line, { limit: 1 })).toMatchObject({ endLine: 1, more: false });
    expect(await lines(`${line}y`, { limit: 1 })).toMatchObject({ endLine: 1, more: true });
  });

  it('cuts a long line at maxLineChars and holds a 2 MB one-line file to that', async () => {
    const read = await lines('é'.repeat(2_000_000), { maxLineChars: 100 });
    expect(read.lines).toEqual([{ number: 1, text: 'é'.repeat(100), cutFrom: 2_000_000 }]);
    expect(read).toMatchObject({ endLine: 1, totalLines: 1, more: false });
  });

  it('ends the window before a line that does not fit the byte budget', async () => {
    expect(await lines('aaaa\nbbbb\ncccc\n', { maxBytes: 26 })).toMatchObject({ lines: [{ text: 'aaaa' }, { text: 'bbbb' }], endLine: 2, more: true });
  });

  it('reads Latin-1 when the bytes are not UTF-8, and refuses NUL bytes and deep offsets past the scan cap', async () => {
    const latin = await lines(Buffer.concat([Buffer.from('ok\n'.repeat(30_000)), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]), { offset: 30_001 });
    expect(latin).toMatchObject({ encoding: 'latin1', lines: [{ number: 30_001, text: 'café' }] });
    await expect(lines(Buffer.from('a\n\u0000b'))).rejects.toMatchObject({ code: 'BINARY_FILE' });
    await expect(lines('line\n'.repeat(100_000), { offset: 90_000, maxScanBytes: 65_536 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(lines('a', { signal: controller.signal })).rejects.toThrow('stop');
  });
});
