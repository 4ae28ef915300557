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
    return await readTextLines(handle, { offset: 1, limit: Number.POSITIVE_INFINITY, maxBytes: 1_000_000, maxScanBytes: 10_000_000, display: '"f"', ...options });
  } finally {
    await handle.close();
  }
}

describe('readTextLines', () => {
  it('reads everything, counting lines with or without a final newline', async () => {
    expect(await lines('a\nb\n')).toEqual({ text: 'a\nb\n', startLine: 1, endLine: 2, totalLines: 2, truncated: false, more: false });
    expect(await lines('a\nb')).toMatchObject({ text: 'a\nb', endLine: 2, totalLines: 2 });
    expect(await lines('')).toMatchObject({ text: '', endLine: 0, totalLines: 0, more: false });
    expect(await lines('\n')).toMatchObject({ text: '\n', endLine: 1, totalLines: 1 });
  });

  it('returns a window of lines and knows whether more follow', async () => {
    expect(await lines('1\n2\n3\n', { offset: 2, limit: 1 })).toEqual({ text: '2\n', startLine: 2, endLine: 2, totalLines: undefined, truncated: false, more: true });
    expect(await lines('1\n2\n3\n', { offset: 3, limit: 1 })).toMatchObject({ text: '3\n', endLine: 3, more: false });
    expect(await lines('1\n2\n3', { offset: 3, limit: 5 })).toMatchObject({ text: '3', endLine: 3, totalLines: 3, more: false });
    expect(await lines('1\n2\n', { offset: 7 })).toMatchObject({ text: '', startLine: 7, endLine: 6, totalLines: 2, more: false });
  });

  it('knows the end exactly when the last wanted line ends on a chunk boundary', async () => {
    const line = `${'x'.repeat(65_535)}\n`;
    expect(await lines(line, { limit: 1 })).toMatchObject({ endLine: 1, more: false });
    expect(await lines(`${line}y`, { limit: 1 })).toMatchObject({ endLine: 1, more: true });
  });

  it('cuts at maxBytes on a character boundary', async () => {
    expect(await lines('ééé\nx\n', { maxBytes: 5 })).toMatchObject({ text: 'éé', endLine: 1, truncated: true, more: true });
  });

  it('refuses binary content wherever it is read, and deep offsets past the scan cap', async () => {
    await expect(lines(Buffer.from('a\n\u0000b'))).rejects.toMatchObject({ code: 'BINARY_FILE' });
    await expect(lines(Buffer.concat([Buffer.from('ok\n'.repeat(30_000)), Buffer.from([0xc3, 0x28])]))).rejects.toMatchObject({ code: 'BINARY_FILE' });
    await expect(lines(Buffer.from([0xe2, 0x82]))).rejects.toMatchObject({ code: 'BINARY_FILE' });
    await expect(lines('line\n'.repeat(100_000), { offset: 90_000, maxScanBytes: 65_536 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(lines('a', { signal: controller.signal })).rejects.toThrow('stop');
  });
});
