import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('find_files', () => {
  const ws = useWorkspace();

  const tree = async () => {
    for (const file of ['src/a.ts', 'src/b.tsx', 'src/lib/c.ts', 'README.md', 'notes.txt', '.github/workflows/ci.yml', '.git/HEAD', 'node_modules/p/index.ts']) {
      await ws.fx.file(file, '');
    }
  };

  it('returns matching files relative to the root, newest first; a pattern without "/" matches names at any depth', async () => {
    await tree();
    const { utimes } = await import('node:fs/promises');
    await utimes(ws.fx.inRoot('src/lib/c.ts'), new Date(2030, 0, 1), new Date(2030, 0, 1));
    await utimes(ws.fx.inRoot('src/a.ts'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const h = await ws.harness();
    expect((await h.call('find_files', { pattern: '**/*.ts' })).content).toBe('src/lib/c.ts\nsrc/a.ts');
    expect((await h.call('find_files', { pattern: '*.ts' })).content).toBe('src/lib/c.ts\nsrc/a.ts');
    expect((await h.call('find_files', { pattern: 'c.ts' })).content).toBe('src/lib/c.ts');
    expect((await h.call('find_files', { pattern: 'lib/*.ts', path: 'src' })).content).toBe('src/lib/c.ts');
    expect((await h.call('find_files', { pattern: '**/*.ts', path: 'src/lib' })).content).toBe('src/lib/c.ts');
    // Hidden directories as ripgrep treats them: left out unless asked for or named.
    expect((await h.call('find_files', { pattern: '**/*.yml' })).content).toBe('(no files match)');
    expect((await h.call('find_files', { pattern: '**/*.yml', hidden: true })).content).toBe('.github/workflows/ci.yml');
    expect((await h.call('find_files', { pattern: '.github/**/*.yml' })).content).toBe('.github/workflows/ci.yml');
  });

  it('respects nested .gitignore files, and lists ignored files on request', async () => {
    await ws.fx.file('.gitignore', 'dist/\n');
    await ws.fx.file('pkg/.gitignore', '*.gen.ts\n');
    await ws.fx.file('pkg/a.ts', '');
    await ws.fx.file('pkg/b.gen.ts', '');
    await ws.fx.file('dist/c.ts', '');
    const h = await ws.harness();
    expect((await h.call('find_files', { pattern: '*.ts' })).content).toBe('pkg/a.ts');
    expect(((await h.call('find_files', { pattern: '*.ts', include_ignored: true })).content).split('\n').sort()).toEqual(['dist/c.ts', 'pkg/a.ts', 'pkg/b.gen.ts']);
  });

  it('skips .git and node_modules unless the pattern names them', async () => {
    await tree();
    const h = await ws.harness();
    expect((await h.call('find_files', { pattern: '**/HEAD' })).content).toBe('(no files match)');
    expect((await h.call('find_files', { pattern: '.git/*' })).content).toBe('.git/HEAD');
    expect((await h.call('find_files', { pattern: 'node_modules/**/*.ts' })).content).toBe('node_modules/p/index.ts');
  });

  it('does not follow links, even inside the workspace', async () => {
    await tree();
    await ws.fx.link('alias', 'src');
    await ws.fx.link('file-alias.ts', 'src/a.ts');
    const h = await ws.harness();
    expect(((await h.call('find_files', { pattern: '**/*.ts' })).content).split('\n').sort()).toEqual(['src/a.ts', 'src/lib/c.ts']);
  });

  it('leaves out names the validator refuses (they could not be read anyway)', async () => {
    await ws.fx.file('ok.txt', '');
    await ws.fx.file('a:b.txt', '');
    const h = await ws.harness();
    expect((await h.call('find_files', { pattern: '*.txt' })).content).toBe('ok.txt');
  });

  it('caps results with a truncation marker', async () => {
    for (let index = 0; index < 8; index += 1) await ws.fx.file(`f${index}.txt`, '');
    const h = await ws.harness({ maxEntries: 3 });
    expect((await h.call('find_files', { pattern: '*.txt' })).content).toMatch(/^(f\d\.txt\n){3}\[\.\.\. truncated: more files may match than shown\. Narrow the pattern or the path\.\]$/);
  });

  it('refuses patterns that are empty, absolute, escaping or use backslashes', async () => {
    const h = await ws.harness();
    for (const pattern of ['', '   ', '/etc/*', '../*', 'a/../../*', '{..,x}/*', '~/*', 'src\\*.ts']) {
      const result = await h.call('find_files', { pattern });
      expect(result.ok ? 'ok' : result.error.code, pattern).toBe('INVALID_PATTERN');
    }
    expect((await h.call('find_files', { pattern: '*', path: '..' })).ok).toBe(false);
  });
});
