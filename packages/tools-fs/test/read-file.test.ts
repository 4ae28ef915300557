import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

const numbered = (...lines: string[]) => lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');

describe('read_file', () => {
  const ws = useWorkspace();

  it('returns a whole small file as numbered lines (cat -n), with nothing after', async () => {
    await ws.fx.file('src/a.ts', 'line 1\nline 2\n');
    const h = await ws.harness();
    const result = await h.call('read_file', { path: 'src/a.ts' });
    expect(result).toMatchObject({ ok: true, content: numbered('line 1', 'line 2') });
    expect(result.ok && result.value).toEqual({
      path: 'src/a.ts',
      lines: [{ number: 1, text: 'line 1' }, { number: 2, text: 'line 2' }],
      startLine: 1,
      endLine: 2,
      totalLines: 2,
      more: false,
      encoding: 'utf-8',
    });
  });

  it('reads a range of lines, and says where it is and how to go on', async () => {
    await ws.fx.file('f.txt', '1\n2\n3\n4\n5\n');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'f.txt', offset: 2, limit: 2 })).content).toBe('     2\t2\n     3\t3\n[lines 2-3 of 5 of f.txt. Continue with offset=4.]');
    expect((await h.call('read_file', { path: 'f.txt', offset: 4 })).content).toBe('     4\t4\n     5\t5\n[lines 4-5 of 5 of f.txt; the end of the file.]');
    expect((await h.call('read_file', { path: 'f.txt', limit: 1 })).content).toBe('     1\t1\n[lines 1-1 of 5 of f.txt. Continue with offset=2.]');
    expect((await h.call('read_file', { path: 'f.txt', offset: 9 })).content).toBe('(f.txt has 5 lines; there is nothing at line 9)');
  });

  it('pages through a 2,000-line-plus file: a window of 2000 lines under the content cap, then the rest', async () => {
    const lines = Array.from({ length: 2600 }, (_, index) => `const value${index + 1} = ${index + 1};`);
    await ws.fx.file('long.ts', `${lines.join('\n')}\n`);
    const h = await ws.harness();
    const first = await h.call('read_file', { path: 'long.ts' });
    expect(first.content.length).toBeLessThan(100_000);
    expect(first.content).toMatch(/^ {5}1\tconst value1 = 1;\n/);
    expect(first.content).toMatch(/\n {2}2000\tconst value2000 = 2000;\n\[lines 1-2000 of 2600 of long\.ts\. Continue with offset=2001\.\]$/);
    const rest = await h.call('read_file', { path: 'long.ts', offset: 2001 });
    expect(rest.content).toMatch(/^ {2}2001\tconst value2001 = 2001;\n[^]*\n {2}2600\tconst value2600 = 2600;\n\[lines 2001-2600 of 2600 of long\.ts; the end of the file\.\]$/);
  });

  it('stops a window of long lines at the byte budget and says where to continue', async () => {
    await ws.fx.file('wide.txt', `${'w'.repeat(1500)}\n`.repeat(200));
    const h = await ws.harness();
    const result = await h.call('read_file', { path: 'wide.txt' });
    expect(result.content.length).toBeLessThan(100_000);
    expect(result.content).toMatch(/\[lines 1-(\d+) of 200 of wide\.txt\. Continue with offset=\d+\.\]$/);
  });

  it('bounds a 2 MB one-line file, with or without a range', async () => {
    await ws.fx.file('min.js', 'x'.repeat(2 * 1024 * 1024));
    const h = await ws.harness();
    for (const args of [{ path: 'min.js' }, { path: 'min.js', offset: 1, limit: 1 }]) {
      const result = await h.call('read_file', args);
      expect(result.content.length).toBeLessThan(2200);
      expect(result.content).toContain(`     1\t${'x'.repeat(2000)} [... cut: the line has 2097152 characters]`);
      expect(result.content).toContain('[Line 1 was cut; use search_files to find text in it.]');
    }
  });

  it('shows CRLF lines without the carriage return and drops the byte-order mark from view', async () => {
    await ws.fx.file('crlf.txt', '\ufeffa\r\nb');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'crlf.txt' })).content).toBe(numbered('a', 'b'));
    expect((await h.call('read_file', { path: 'crlf.txt', offset: 2 })).content).toBe('     2\tb\n[lines 2-2 of 2 of crlf.txt; the end of the file.]');
  });

  it('keeps tabs as they are', async () => {
    await ws.fx.file('tabs.go', 'func f() {\n\treturn\n}\n');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'tabs.go' })).content).toBe(numbered('func f() {', '\treturn', '}'));
  });

  it('says a file is empty', async () => {
    await ws.fx.file('empty.txt', '');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'empty.txt' })).content).toBe('(empty.txt is empty)');
  });

  it('decodes characters split across read chunks of a file streamed because it is too large to hold', async () => {
    const line = `${'x'.repeat(65_535)}é${'y'.repeat(10)}`;
    await ws.fx.file('split.txt', `${line}\n`.repeat(300));
    const h = await ws.harness({ maxReadBytes: 100_000 });
    const result = await h.call('read_file', { path: 'split.txt', offset: 2, limit: 1 });
    expect(result.ok && result.value).toMatchObject({ lines: [{ number: 2, text: 'x'.repeat(2000), cutFrom: line.length }] });
  });

  it('reads Latin-1 text and says so; a NUL byte stays binary', async () => {
    await ws.fx.file('zero.bin', Buffer.from([0x61, 0x00, 0x62]));
    await ws.fx.file('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const h = await ws.harness();
    const zero = await h.call('read_file', { path: 'zero.bin' });
    expect(zero.ok ? undefined : zero.error).toMatchObject({ code: 'BINARY_FILE', message: expect.stringContaining('binary') });
    const latin = await h.call('read_file', { path: 'latin1.txt' });
    expect(latin.content).toBe('     1\tcafé\n[latin1.txt is Latin-1 (ISO-8859-1) text, not UTF-8; write_file and edit_file keep that encoding.]');
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
