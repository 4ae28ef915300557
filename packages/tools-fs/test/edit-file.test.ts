import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';
import type { FsHarness } from './helpers/fs-harness.js';

/** read_file, then edit_file, as a model does. */
async function readThenEdit(h: FsHarness, path: string, old_string: string, new_string: string, replace_all?: boolean) {
  await h.call('read_file', { path });
  return h.call('edit_file', { path, old_string, new_string, ...(replace_all === undefined ? {} : { replace_all }) });
}

describe('edit_file', () => {
  const ws = useWorkspace();

  it('replaces exact text that occurs once, reports the count and shows the changed lines numbered', async () => {
    await ws.fx.file('a.ts', 'const a = 1;\nconst b = 2;\n');
    const h = await ws.harness();
    const result = await readThenEdit(h, 'a.ts', 'const b = 2;', 'const b = 3;\nconst c = 4;');
    expect(result).toMatchObject({ ok: true, content: 'Replaced 1 occurrence in a.ts.\n     1\tconst a = 1;\n     2\tconst b = 3;\n     3\tconst c = 4;\n     4\t' });
    expect(result.ok && result.value).toMatchObject({ path: 'a.ts', replacements: 1, match: 'exact' });
    expect(await readFile(ws.fx.inRoot('a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst c = 4;\n');
  });

  it('refuses an ambiguous match unless replace_all, which reports how many', async () => {
    await ws.fx.file('a.txt', 'x x x');
    const h = await ws.harness();
    const ambiguous = await readThenEdit(h, 'a.txt', 'x', 'y');
    expect(ambiguous.ok ? undefined : ambiguous.error).toMatchObject({ code: 'AMBIGUOUS_MATCH', message: expect.stringContaining('3 times') });
    expect(await readFile(ws.fx.inRoot('a.txt'), 'utf8')).toBe('x x x');
    expect(await h.call('edit_file', { path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: true })).toMatchObject({ ok: true, content: expect.stringMatching(/^Replaced 3 occurrences in a\.txt\./) });
    expect(await readFile(ws.fx.inRoot('a.txt'), 'utf8')).toBe('y y y');
  });

  it('edits a CRLF file with an LF old_string and keeps CRLF everywhere (no mixed endings)', async () => {
    await ws.fx.file('win.txt', 'a\r\nb\r\nc\r\n');
    const h = await ws.harness();
    expect((await readThenEdit(h, 'win.txt', 'a\nb', 'A\nB\nB2')).ok).toBe(true);
    expect(await readFile(ws.fx.inRoot('win.txt'), 'utf8')).toBe('A\r\nB\r\nB2\r\nc\r\n');
  });

  it('keeps "$&" and "$1" in new_string literal, and keeps the byte-order mark and permissions', async () => {
    await ws.fx.file('p.txt', '\ufeffprice: X\n');
    await chmod(ws.fx.inRoot('p.txt'), 0o640);
    const h = await ws.harness();
    await readThenEdit(h, 'p.txt', 'X', '$& $1 $$');
    expect(await readFile(ws.fx.inRoot('p.txt'), 'utf8')).toBe('\ufeffprice: $& $1 $$\n');
    expect((await stat(ws.fx.inRoot('p.txt'))).mode & 0o777).toBe(0o640);
  });

  it('edits a Latin-1 file and writes it back in Latin-1, byte for byte elsewhere', async () => {
    const before = Buffer.from('# caf\xe9 cr\xe8me\nprix = 5\n\xa9 2024\n', 'latin1');
    await ws.fx.file('menu.txt', before);
    const h = await ws.harness();
    expect((await readThenEdit(h, 'menu.txt', 'prix = 5', 'prix = 7 (r\u00e9duit)')).ok).toBe(true);
    expect(await readFile(ws.fx.inRoot('menu.txt'))).toEqual(Buffer.from('# caf\xe9 cr\xe8me\nprix = 7 (r\xe9duit)\n\xa9 2024\n', 'latin1'));
    const euro = await h.call('edit_file', { path: 'menu.txt', old_string: 'prix', new_string: '€' });
    expect(euro.ok ? undefined : euro.error.code).toBe('UNENCODABLE');
  });

  it('tolerates what models get wrong when the fallback is unique: trailing whitespace, tabs vs spaces, curly quotes', async () => {
    await ws.fx.file('t.go', 'func f() {   \n\tif ok {\n\t\treturn "yes"\n\t}\n}\n');
    await ws.fx.file('q.md', 'He said \u201cship it\u201d \u2014 twice.\n');
    const h = await ws.harness();
    const trailing = await readThenEdit(h, 't.go', 'func f() {\n\tif ok {', 'func g() {\n\tif ok {');
    expect(trailing).toMatchObject({ ok: true, content: expect.stringContaining('(matched ignoring trailing whitespace)') });
    const tabs = await readThenEdit(h, 't.go', '    if ok {\n        return "yes"', '    if ok {\n        return "no"');
    expect(tabs).toMatchObject({ ok: true, content: expect.stringContaining("(matched ignoring indentation; new_string was re-indented to the file's tabs)") });
    expect(await readFile(ws.fx.inRoot('t.go'), 'utf8')).toBe('func g() {\n\tif ok {\n\t\treturn "no"\n\t}\n}\n');
    const quotes = await readThenEdit(h, 'q.md', 'said "ship it" - twice', 'said "wait"');
    expect(quotes).toMatchObject({ ok: true, content: expect.stringContaining("curly quotes, dashes and no-break spaces as their plain forms; new_string's quotes were written as the file writes them") });
    expect(quotes.ok && quotes.value).toMatchObject({ match: 'quotes-and-dashes', style: "new_string's quotes were written as the file writes them" });
    expect(await readFile(ws.fx.inRoot('q.md'), 'utf8')).toBe('He said \u201cwait\u201d.\n');
  });

  it('a 4-space new_string into a tab-indented Python file is written with tabs on every line', async () => {
    await ws.fx.file('app.py', 'def main(args):\n\tfor a in args:\n\t\tprint(a)\n\treturn 0\n');
    const h = await ws.harness();
    const result = await readThenEdit(h, 'app.py', '    for a in args:\n        print(a)', '    for a in args:\n        if a:\n            print(a)\n    print("done")');
    expect(result.ok && result.value).toMatchObject({ match: 'indentation', style: "new_string was re-indented to the file's tabs" });
    expect(await readFile(ws.fx.inRoot('app.py'), 'utf8')).toBe('def main(args):\n\tfor a in args:\n\t\tif a:\n\t\t\tprint(a)\n\tprint("done")\n\treturn 0\n');
  });

  it('on no match, shows the closest lines with their numbers and where they differ, and changes nothing', async () => {
    await ws.fx.file('m.ts', 'import { x } from "./x";\n\nexport function main() {\n  return x(1, 2);\n}\n');
    const h = await ws.harness();
    const result = await readThenEdit(h, 'm.ts', 'export function main() {\n  return x(1, 3);\n}', 'nothing');
    expect(result.ok ? undefined : result.error.code).toBe('NO_MATCH');
    expect(result.content).toContain('     3\texport function main() {');
    expect(result.content).toContain('     4\t  return x(1, 2);');
    expect(result.content).toMatch(/Line 4 of the file differs from line 2 of old_string at column 15/);
    expect(await readFile(ws.fx.inRoot('m.ts'), 'utf8')).toBe('import { x } from "./x";\n\nexport function main() {\n  return x(1, 2);\n}\n');
  });

  it('refuses a file not read in this session, or changed since (by content), saying to read it again', async () => {
    await ws.fx.file('r.txt', 'one\n');
    const h = await ws.harness();
    const unread = await h.call('edit_file', { path: 'r.txt', old_string: 'one', new_string: 'two' });
    expect(unread.ok ? undefined : unread.error).toMatchObject({ code: 'NOT_READ', message: expect.stringContaining('Read it with read_file first') });
    await h.call('read_file', { path: 'r.txt', offset: 1, limit: 1 });
    await writeFile(ws.fx.inRoot('r.txt'), 'one!\n');
    const stale = await h.call('edit_file', { path: 'r.txt', old_string: 'one', new_string: 'two' });
    expect(stale.ok ? undefined : stale.error).toMatchObject({ code: 'STALE_READ', message: expect.stringContaining('Read it again') });
    expect(await readFile(ws.fx.inRoot('r.txt'), 'utf8')).toBe('one!\n');
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
