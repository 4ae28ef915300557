import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('search_files', () => {
  const ws = useWorkspace();

  it('returns path:line: text for each matching line, files sorted', async () => {
    await ws.fx.file('src/b.ts', 'const b = 1;\nexport function b() {}\r\n');
    await ws.fx.file('src/a.ts', 'export const a = 1;\n');
    await ws.fx.file('README.md', 'no code here\n');
    const h = await ws.harness();
    const result = await h.call('search_files', { pattern: '^export' });
    expect(result.content).toBe('src/a.ts:1: export const a = 1;\nsrc/b.ts:2: export function b() {}\n[2 matching lines in 3 files searched]');
    expect(result.ok && result.value).toMatchObject({ filesSearched: 3, filesSkipped: 0, truncated: false });
  });

  it('narrows by glob and path, searches one named file, and can ignore case', async () => {
    await ws.fx.file('src/a.ts', 'TODO: a\n');
    await ws.fx.file('src/a.md', 'todo: md\n');
    await ws.fx.file('lib/c.ts', 'todo: c\n');
    const h = await ws.harness();
    expect((await h.call('search_files', { pattern: 'todo', glob: '**/*.ts' })).content).toBe('lib/c.ts:1: todo: c\n[1 matching line in 2 files searched]');
    expect((await h.call('search_files', { pattern: 'todo', path: 'src', ignore_case: true })).content).toBe('src/a.md:1: todo: md\nsrc/a.ts:1: TODO: a\n[2 matching lines in 2 files searched]');
    expect((await h.call('search_files', { pattern: 'TODO', path: 'src/a.ts' })).content).toBe('src/a.ts:1: TODO: a\n[1 matching line in 1 file searched]');
  });

  it('skips binary files and counts them', async () => {
    await ws.fx.file('text.txt', 'needle\n');
    await ws.fx.file('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]));
    const h = await ws.harness();
    const result = await h.call('search_files', { pattern: 'needle' });
    expect(result.content).toBe('text.txt:1: needle\n[1 matching line in 1 file searched, 1 skipped (binary, too large or changed)]');
  });

  it('cuts long lines and caps the matches', async () => {
    await ws.fx.file('long.txt', `${'x'.repeat(600)}\n`);
    await ws.fx.file('many.txt', 'hit\n'.repeat(10));
    const h = await ws.harness({ maxEntries: 4 });
    const long = await h.call('search_files', { pattern: 'x', path: 'long.txt' });
    expect(long.content).toBe(`long.txt:1: ${'x'.repeat(500)} [...]\n[1 matching line in 1 file searched]`);
    const many = await h.call('search_files', { pattern: 'hit', path: 'many.txt' });
    expect(many.content).toBe('many.txt:1: hit\nmany.txt:2: hit\nmany.txt:3: hit\nmany.txt:4: hit\n[4 matching lines in 1 file searched]\n[... truncated: more lines may match than shown. Narrow the pattern, the glob or the path.]');
  });

  it('treats $-patterns in the file as text and the regex as JavaScript syntax', async () => {
    await ws.fx.file('a.txt', 'price: $5\n(x)\n');
    const h = await ws.harness();
    expect((await h.call('search_files', { pattern: '\\$\\d' })).content).toBe('a.txt:1: price: $5\n[1 matching line in 1 file searched]');
    const invalid = await h.call('search_files', { pattern: '(unclosed' });
    expect(invalid.ok ? undefined : invalid.error.code).toBe('INVALID_PATTERN');
    const inline = await h.call('search_files', { pattern: '(?i)x' });
    expect(inline.ok ? undefined : inline.error.message).toMatch(/ignore_case/);
  });

  it('refuses a path outside and a missing one', async () => {
    const h = await ws.harness();
    const outside = await h.call('search_files', { pattern: 'x', path: '..' });
    const missing = await h.call('search_files', { pattern: 'x', path: 'nope' });
    expect([outside, missing].map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['PATH_OUTSIDE_WORKSPACE', 'NOT_FOUND']);
  });
});
