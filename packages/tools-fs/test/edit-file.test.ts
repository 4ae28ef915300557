import { chmod, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('edit_file', () => {
  const ws = useWorkspace();

  it('replaces exact text that occurs once, and reports the count', async () => {
    await ws.fx.file('a.ts', 'const a = 1;\nconst b = 2;\n');
    const h = await ws.harness();
    const result = await h.call('edit_file', { path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;\nconst c = 4;' });
    expect(result).toMatchObject({ ok: true, content: 'Replaced 1 occurrence in a.ts.' });
    expect(result.ok && result.value).toEqual({ path: 'a.ts', replacements: 1 });
    expect(await readFile(ws.fx.inRoot('a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst c = 4;\n');
  });

  it('refuses an ambiguous match unless replace_all, which reports how many', async () => {
    await ws.fx.file('a.txt', 'x x x');
    const h = await ws.harness();
    const ambiguous = await h.call('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'y' });
    expect(ambiguous.ok ? undefined : ambiguous.error).toMatchObject({ code: 'AMBIGUOUS_MATCH', message: expect.stringContaining('3 times') });
    expect(await readFile(ws.fx.inRoot('a.txt'), 'utf8')).toBe('x x x');
    expect(await h.call('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: true })).toMatchObject({ ok: true, content: 'Replaced 3 occurrences in a.txt.' });
    expect(await readFile(ws.fx.inRoot('a.txt'), 'utf8')).toBe('y y y');
  });

  it('says when the text does not occur, hinting at CRLF files, and changes nothing', async () => {
    await ws.fx.file('win.txt', 'a\r\nb\r\n');
    const h = await ws.harness();
    const result = await h.call('edit_file', { path: 'win.txt', old_string: 'a\nb', new_string: 'c' });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: 'NO_MATCH', message: expect.stringContaining('CRLF') });
    expect(await readFile(ws.fx.inRoot('win.txt'), 'utf8')).toBe('a\r\nb\r\n');
  });

  it('keeps "$&" and "$1" in new_string literal, and keeps the byte-order mark and permissions', async () => {
    await ws.fx.file('p.txt', '\ufeffprice: X\n');
    await chmod(ws.fx.inRoot('p.txt'), 0o640);
    const h = await ws.harness();
    await h.call('edit_file', { path: 'p.txt', old_string: 'X', new_string: '$& $1 $$' });
    expect(await readFile(ws.fx.inRoot('p.txt'), 'utf8')).toBe('\ufeffprice: $& $1 $$\n');
    expect((await stat(ws.fx.inRoot('p.txt'))).mode & 0o777).toBe(0o640);
  });

  it('refuses empty or unchanged text, a missing file and a binary file', async () => {
    await ws.fx.file('a.txt', 'a');
    await ws.fx.file('b.bin', Buffer.from([0x61, 0, 0x62]));
    const h = await ws.harness();
    const results = await Promise.all([
      h.call('edit_file', { path: 'a.txt', old_string: '', new_string: 'x' }),
      h.call('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'a' }),
      h.call('edit_file', { path: 'missing.txt', old_string: 'a', new_string: 'b' }),
      h.call('edit_file', { path: 'b.bin', old_string: 'a', new_string: 'c' }),
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['INVALID_ARGUMENTS', 'INVALID_ARGUMENTS', 'NOT_FOUND', 'BINARY_FILE']);
    expect(results[2]?.content).toContain('write_file');
    expect(await readFile(ws.fx.inRoot('b.bin'))).toEqual(Buffer.from([0x61, 0, 0x62]));
  });
});
