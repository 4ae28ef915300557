import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('read_file', () => {
  const ws = useWorkspace();

  it('returns a whole text file as it is', async () => {
    await ws.fx.file('src/a.ts', 'line 1\nline 2\n');
    const h = await ws.harness();
    const result = await h.call('read_file', { path: 'src/a.ts' });
    expect(result).toMatchObject({ ok: true, content: 'line 1\nline 2\n' });
    expect(result.ok && result.value).toEqual({ path: 'src/a.ts', content: 'line 1\nline 2\n', startLine: 1, endLine: 2, totalLines: 2, truncated: false, more: false });
  });

  it('reads a range of lines, and says where it is and how to go on', async () => {
    await ws.fx.file('f.txt', '1\n2\n3\n4\n5\n');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'f.txt', offset: 2, limit: 2 })).content).toBe('2\n3\n[lines 2-3 of f.txt. Continue with offset=4.]');
    expect((await h.call('read_file', { path: 'f.txt', offset: 4 })).content).toBe('4\n5\n[lines 4-5 of 5 of f.txt.]');
    expect((await h.call('read_file', { path: 'f.txt', limit: 1 })).content).toBe('1\n[lines 1-1 of f.txt. Continue with offset=2.]');
    expect((await h.call('read_file', { path: 'f.txt', offset: 9 })).content).toBe('(f.txt has 5 lines; there is nothing at line 9)');
  });

  it('keeps a last line without newline, CRLF line endings and a byte-order mark', async () => {
    await ws.fx.file('crlf.txt', '\ufeffa\r\nb');
    const h = await ws.harness();
    const whole = await h.call('read_file', { path: 'crlf.txt' });
    expect(whole.content).toBe('\ufeffa\r\nb');
    expect((await h.call('read_file', { path: 'crlf.txt', offset: 2 })).content).toBe('b\n[lines 2-2 of 2 of crlf.txt.]');
  });

  it('says a file is empty', async () => {
    await ws.fx.file('empty.txt', '');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'empty.txt' })).content).toBe('(empty.txt is empty)');
  });

  it('decodes characters split across read chunks', async () => {
    const text = `${'x'.repeat(65_535)}é${'y'.repeat(10)}\n`;
    await ws.fx.file('split.txt', text);
    const h = await ws.harness({ maxReadBytes: 200_000 });
    expect((await h.call('read_file', { path: 'split.txt' })).content).toBe(text);
  });

  it('refuses binary files: a NUL byte, or invalid UTF-8', async () => {
    await ws.fx.file('zero.bin', Buffer.from([0x61, 0x00, 0x62]));
    await ws.fx.file('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const h = await ws.harness();
    for (const path of ['zero.bin', 'latin1.txt']) {
      const result = await h.call('read_file', { path });
      expect(result.ok ? undefined : result.error).toMatchObject({ code: 'BINARY_FILE', message: expect.stringContaining('binary') });
    }
  });

  it('refuses a file over the size cap unless a range is asked, and cuts an overlong line', async () => {
    await ws.fx.file('big.txt', `${'a'.repeat(150)}\nshort\n`);
    const h = await ws.harness({ maxReadBytes: 100 });
    const whole = await h.call('read_file', { path: 'big.txt' });
    expect(whole.ok ? undefined : whole.error).toMatchObject({ code: 'TOO_LARGE', message: expect.stringMatching(/157 bytes, over the 100-byte limit.*offset and limit/) });
    const first = await h.call('read_file', { path: 'big.txt', limit: 1 });
    expect(first.content).toBe(`${'a'.repeat(100)}\n[lines 1-1 of big.txt. Line 1 was cut at the size limit. Continue with offset=2.]`);
    expect((await h.call('read_file', { path: 'big.txt', offset: 2 })).content).toBe('short\n[lines 2-2 of 2 of big.txt.]');
  });

  it('names paths as the model gave them, never the absolute root', async () => {
    await ws.fx.file('dir/x.txt', 'x');
    const h = await ws.harness();
    const failures = await Promise.all([
      h.call('read_file', { path: 'missing.txt' }),
      h.call('read_file', { path: 'dir' }),
      h.call('read_file', { path: 'dir/x.txt/y' }),
      h.call('read_file', { path: '../secret.txt' }),
    ]);
    expect(failures.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['NOT_FOUND', 'IS_A_DIRECTORY', 'NOT_A_DIRECTORY', 'PATH_OUTSIDE_WORKSPACE']);
    for (const result of failures) expect(result.content).not.toContain(ws.fx.base);
    expect(failures[0]?.content).toContain('"missing.txt" does not exist');
  });

  it('stops when the call is aborted', async () => {
    await writeFile(ws.fx.inRoot('a.txt'), 'a');
    const h = await ws.harness();
    const controller = new AbortController();
    controller.abort();
    const result = await h.harness.executeToolCall({ id: 'x', name: 'read_file', arguments: { path: 'a.txt' } }, { signal: controller.signal });
    expect(result.ok ? undefined : result.error.code).toBe('ABORTED');
  });

  it('rejects arguments the schema does not allow, before the body runs', async () => {
    const h = await ws.harness();
    const result = await h.call('read_file', { path: 'a.txt', offset: 0 });
    expect(result.ok ? undefined : result.error.code).toBe('INVALID_ARGUMENTS');
    expect((await h.call('read_file', { path: 'a.txt', extra: 1 })).ok).toBe(false);
  });
});
