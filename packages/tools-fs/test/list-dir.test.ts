import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('list_dir', () => {
  const ws = useWorkspace();

  it('lists the root sorted, with "/" after directories and paths relative to the root', async () => {
    await ws.fx.file('b.txt', '');
    await ws.fx.file('A.md', '');
    await ws.fx.file('src/z.ts', '');
    await mkdir(ws.fx.inRoot('empty'));
    const h = await ws.harness();
    const result = await h.call('list_dir', {});
    expect(result.content).toBe('A.md\nb.txt\nempty/\nsrc/');
    expect(result.ok && result.value).toEqual({
      path: '.',
      truncated: false,
      entries: [
        { path: 'A.md', kind: 'file' },
        { path: 'b.txt', kind: 'file' },
        { path: 'empty/', kind: 'directory' },
        { path: 'src/', kind: 'directory' },
      ],
    });
    expect((await h.call('list_dir', { path: 'empty' })).content).toBe('(empty is empty)');
  });

  it('lists deeper levels with depth, depth first, and does not expand .git or node_modules', async () => {
    await ws.fx.file('src/lib/deep/x.ts', '');
    await ws.fx.file('src/a.ts', '');
    await ws.fx.file('node_modules/p/index.js', '');
    await ws.fx.file('.git/config', '');
    const h = await ws.harness();
    expect((await h.call('list_dir', { path: '.', depth: 3 })).content).toBe(
      ['.git/ (not expanded; list it directly)', 'node_modules/ (not expanded; list it directly)', 'src/', 'src/a.ts', 'src/lib/', 'src/lib/deep/'].join('\n'),
    );
    expect((await h.call('list_dir', { path: 'src', depth: 2 })).content).toBe('src/a.ts\nsrc/lib/\nsrc/lib/deep/');
    expect((await h.call('list_dir', { path: 'node_modules' })).content).toBe('node_modules/p/');
  });

  it('shows links with where they lead, never following them, and other files as not regular', async () => {
    await ws.fx.file('src/a.ts', '');
    await ws.fx.link('to-src', 'src');
    await ws.fx.link('to-file', 'src/a.ts');
    await ws.fx.link('to-outside', ws.fx.home);
    await ws.fx.link('broken', 'nothing');
    await ws.fx.link('loop', 'loop');
    execFileSync('mkfifo', [ws.fx.inRoot('pipe')]);
    const h = await ws.harness();
    expect((await h.call('list_dir', { depth: 2 })).content).toBe(
      [
        'broken -> (broken link)',
        'loop -> (link loop)',
        'pipe [not a regular file]',
        'src/',
        'src/a.ts',
        'to-file -> src/a.ts',
        'to-outside -> (outside the workspace; not followed)',
        'to-src -> src/',
      ].join('\n'),
    );
  });

  it('lists a directory reached through a link under its canonical path', async () => {
    await ws.fx.file('src/a.ts', '');
    await ws.fx.link('alias', 'src');
    const h = await ws.harness();
    const result = await h.call('list_dir', { path: 'alias' });
    expect(result.content).toBe('src/a.ts');
  });

  it('caps the entries with a truncation marker', async () => {
    for (let index = 0; index < 12; index += 1) await ws.fx.file(`d/f${String(index).padStart(2, '0')}`, '');
    const h = await ws.harness({ maxEntries: 5 });
    const result = await h.call('list_dir', { path: 'd' });
    expect(result.content).toBe('d/f00\nd/f01\nd/f02\nd/f03\nd/f04\n[... truncated: more entries exist than shown. List a subdirectory, or use a smaller depth.]');
    expect(result.ok && (result.value as { truncated: boolean }).truncated).toBe(true);
  });

  it('refuses a file, a missing directory and depth out of range', async () => {
    await ws.fx.file('a.txt', '');
    const h = await ws.harness();
    const codes = await Promise.all([
      h.call('list_dir', { path: 'a.txt' }),
      h.call('list_dir', { path: 'nope' }),
      h.call('list_dir', { path: '.', depth: 11 }),
    ]);
    expect(codes.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['NOT_A_DIRECTORY', 'NOT_FOUND', 'INVALID_ARGUMENTS']);
  });
});
