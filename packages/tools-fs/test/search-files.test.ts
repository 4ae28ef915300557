import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

// ripgrep is installed by .ci/run; without it the "ripgrep" runs fall back to JavaScript and say so.
const hasRipgrep = (() => {
  try {
    return execFileSync('rg', ['--version']).toString().startsWith('ripgrep');
  } catch {
    return false;
  }
})();

for (const ripgrep of [true, false]) {
  describe(`search_files (${ripgrep ? 'ripgrep lists candidates' : 'JavaScript walk only'})`, () => {
    const ws = useWorkspace();
    const harness = (options: Parameters<typeof ws.harness>[0] = {}) => ws.harness({ ripgrep, ...options });

    it('returns path:line: text for each matching line, and which engine listed the files', async () => {
      await ws.fx.file('src/b.ts', 'const b = 1;\nexport function b() {}\r\n');
      await ws.fx.file('src/a.ts', 'export const a = 1;\n');
      await ws.fx.file('README.md', 'no code here\n');
      const h = await harness();
      const result = await h.call('search_files', { pattern: '^export' });
      expect(result.content).toBe('src/a.ts:1: export const a = 1;\nsrc/b.ts:2: export function b() {}\n[2 matching lines shown; 3 files searched]');
      expect(result.ok && result.value).toMatchObject({ filesSearched: 3, filesSkipped: 0, truncated: false, engine: ripgrep && hasRipgrep ? 'ripgrep' : 'javascript' });
    });

    it('with ripgrep listing the files, only its candidates are walked to and matched; the lines found are the same', async () => {
      await ws.fx.file('src/a.ts', 'the needle\n');
      await ws.fx.file('src/lib/b.ts', 'a needle too\nneedles\n');
      await ws.fx.file('other/deep/x.ts', 'nothing here\n');
      await ws.fx.file('other/y.ts', 'nothing either\n');
      const h = await harness();
      const result = await h.call('search_files', { pattern: 'needle\\b' });
      expect(result.content).toBe('src/a.ts:1: the needle\nsrc/lib/b.ts:1: a needle too\n[2 matching lines shown; 4 files searched]');
      // With ripgrep the count is the files ripgrep searched.
      expect(result.ok && result.value).toMatchObject({ filesSearched: 4, engine: ripgrep && hasRipgrep ? 'ripgrep' : 'javascript' });
    });

    it('finds hidden files the glob names, a worktree\'s .git file with hidden, never a .git or node_modules folder unless named', async () => {
      await ws.fx.file('.github/ci.yml', 'needle ci\n');
      await ws.fx.file('.git/config', 'needle git\n');
      await ws.fx.file('sub/.git', 'gitdir: needle\n');
      await ws.fx.file('node_modules/m/index.js', 'needle module\n');
      await ws.fx.file('src/a.ts', 'needle a\n');
      const h = await harness();
      const paths = async (args: Record<string, unknown>) => {
        const result = await h.call('search_files', { pattern: 'needle', output_mode: 'files_with_matches', ...args });
        return result.ok ? (result.value as { files: { path: string }[] }).files.map((file) => file.path) : result.error.code;
      };
      expect(await paths({})).toEqual(['src/a.ts']);
      expect(await paths({ glob: '.github/**' })).toEqual(['.github/ci.yml']);
      expect(await paths({ hidden: true })).toEqual(['.github/ci.yml', 'src/a.ts', 'sub/.git']);
      expect(await paths({ glob: '.git/*' })).toEqual(['.git/config']);
      expect(await paths({ glob: 'node_modules/**', include_ignored: true })).toEqual(['node_modules/m/index.js']);
    });

    it('a glob without "/" matches file names at any depth; with "/" paths under the search path', async () => {
      await ws.fx.file('packages/core/src/a.ts', 'needle a\n');
      await ws.fx.file('packages/core/src/a.md', 'needle md\n');
      await ws.fx.file('packages/b.ts', 'needle b\n');
      const h = await harness();
      // ripgrep does not take the glob (only the walk's rules decide), so it searched the three files.
      const searched = ripgrep && hasRipgrep ? 3 : 2;
      expect((await h.call('search_files', { pattern: 'needle', path: 'packages', glob: '*.ts' })).content).toBe(`packages/b.ts:1: needle b\npackages/core/src/a.ts:1: needle a\n[2 matching lines shown; ${searched} files searched]`);
      expect((await h.call('search_files', { pattern: 'needle', path: 'packages', glob: 'core/**/*.md' })).content).toBe(`packages/core/src/a.md:1: needle md\n[1 matching line shown; ${searched === 3 ? '3 files' : '1 file'} searched]`);
      expect((await h.call('search_files', { pattern: 'NEEDLE', path: 'packages/b.ts', ignore_case: true })).content).toBe('packages/b.ts:1: needle b\n[1 matching line shown; 1 file searched]');
    });

    it('respects nested .gitignore files (negation too) and .ignore, skips hidden files, and can include both', async () => {
      await ws.fx.file('.gitignore', 'build/\n*.log\n');
      await ws.fx.file('app/.gitignore', '!keep.log\ngenerated.ts\n');
      await ws.fx.file('app/.ignore', 'vendor/\n');
      await ws.fx.file('app/main.ts', 'needle main\n');
      await ws.fx.file('app/generated.ts', 'needle generated\n');
      await ws.fx.file('app/keep.log', 'needle keep\n');
      await ws.fx.file('app/drop.log', 'needle drop\n');
      await ws.fx.file('app/vendor/v.ts', 'needle vendor\n');
      await ws.fx.file('build/out.js', 'needle build\n');
      await ws.fx.file('.hidden/h.ts', 'needle hidden\n');
      await ws.fx.file('.env', 'needle env\n');
      const h = await harness();
      const paths = async (args: Record<string, unknown>) => {
        const result = await h.call('search_files', { pattern: 'needle', output_mode: 'files_with_matches', ...args });
        return result.ok ? (result.value as { files: { path: string }[] }).files.map((file) => file.path).sort() : result.error.code;
      };
      expect(await paths({})).toEqual(['app/keep.log', 'app/main.ts']);
      // The root .gitignore applies below a search path too.
      expect(await paths({ path: 'app' })).toEqual(['app/keep.log', 'app/main.ts']);
      expect(await paths({ hidden: true })).toEqual(['.env', '.hidden/h.ts', 'app/keep.log', 'app/main.ts']);
      expect(await paths({ include_ignored: true })).toEqual(['app/drop.log', 'app/generated.ts', 'app/keep.log', 'app/main.ts', 'app/vendor/v.ts', 'build/out.js']);
    });

    it('shows context lines ripgrep-style, counts, and pages with limit and offset', async () => {
      await ws.fx.file('c.txt', 'a\nb\nhit 1\nc\nd\ne\nf\nhit 2\ng\n');
      await ws.fx.file('d.txt', 'hit 3\nhit 4\n');
      const h = await harness();
      expect((await h.call('search_files', { pattern: 'hit', path: 'c.txt', context: 1 })).content).toBe('c.txt-2- b\nc.txt:3: hit 1\nc.txt-4- c\n--\nc.txt-7- f\nc.txt:8: hit 2\nc.txt-9- g\n[2 matching lines shown; 1 file searched]');
      expect((await h.call('search_files', { pattern: 'hit', output_mode: 'count' })).content).toBe('c.txt:2\nd.txt:2\n[2 files shown; 2 files searched]');
      const first = await h.call('search_files', { pattern: 'hit', limit: 3 });
      expect(first.content).toBe('c.txt:3: hit 1\nc.txt:8: hit 2\nd.txt:1: hit 3\n[3 matching lines shown; 2 files searched]\n[... more results: continue with offset=3, or narrow the pattern, the glob or the path.]');
      expect((await h.call('search_files', { pattern: 'hit', limit: 3, offset: 3 })).content).toBe('d.txt:2: hit 4\n[1 matching line shown; 2 files searched]');
    });

    it('takes fixed strings literally and lets multi-line patterns span lines', async () => {
      await ws.fx.file('f.ts', 'a.b(1)\naxb(1)\nfunction f(\n  x,\n) {}\n');
      const h = await harness();
      expect((await h.call('search_files', { pattern: 'a.b(', fixed_strings: true })).content).toBe('f.ts:1: a.b(1)\n[1 matching line shown; 1 file searched]');
      expect((await h.call('search_files', { pattern: 'function f\\(\\n\\s+x', multiline: true })).content).toBe('f.ts:3: function f(\nf.ts:4:   x,\n[2 matching lines shown; 1 file searched]');
    });

    it('searches Latin-1 text, skips binary files and counts them', async () => {
      await ws.fx.file('text.txt', 'needle\n');
      await ws.fx.file('latin.txt', Buffer.from('caf\xe9 needle\n', 'latin1'));
      await ws.fx.file('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]));
      const h = await harness();
      const result = await h.call('search_files', { pattern: 'needle' });
      expect(result.content).toMatch(/^latin\.txt:1: café needle\ntext\.txt:1: needle\n\[2 matching lines shown; \d files searched(, 1 skipped \(binary or too large\))?\]$/);
    });

    it('reads files past the shared buffer whole, and skips (and counts) files over the size limit', async () => {
      const line = `${'y'.repeat(99)}\n`;
      await ws.fx.file('edge.txt', `${line.repeat(2622)}needle at the end\n`);
      await ws.fx.file('exact.txt', `${'z'.repeat(256 * 1024 - 7)}needle\n`);
      await ws.fx.file('huge.txt', `${line.repeat(41_944)}needle too late\n`);
      const h = await harness();
      const result = await h.call('search_files', { pattern: 'needle' });
      expect(result.content).toMatch(/^edge\.txt:2623: needle at the end\nexact\.txt:1: z+ \[\.\.\.\]\n/);
      expect(result.ok && (result.value as { matches: unknown[] }).matches).toHaveLength(2);
      if (!(ripgrep && hasRipgrep)) expect(result.ok && result.value).toMatchObject({ filesSearched: 2, filesSkipped: 1 });
    });

    it('cuts long lines and caps the matches', async () => {
      await ws.fx.file('long.txt', `${'x'.repeat(600)}\n`);
      await ws.fx.file('many.txt', 'hit\n'.repeat(10));
      const h = await harness({ maxEntries: 4 });
      expect((await h.call('search_files', { pattern: 'x', path: 'long.txt' })).content).toBe(`long.txt:1: ${'x'.repeat(500)} [...]\n[1 matching line shown; 1 file searched]`);
      const many = await h.call('search_files', { pattern: 'hit', path: 'many.txt' });
      expect(many.content).toBe('many.txt:1: hit\nmany.txt:2: hit\nmany.txt:3: hit\nmany.txt:4: hit\n[4 matching lines shown; 1 file searched]\n[... more results: continue with offset=4, or narrow the pattern, the glob or the path.]');
    });

    it('treats $-patterns in the file as text and the regex as JavaScript syntax (lookbehind, no inline flags)', async () => {
      await ws.fx.file('a.txt', 'price: $5\n(x)\nsize: 10px\n');
      const h = await harness();
      expect((await h.call('search_files', { pattern: '\\$\\d' })).content).toBe('a.txt:1: price: $5\n[1 matching line shown; 1 file searched]');
      expect((await h.call('search_files', { pattern: '(?<=size: )\\d+px' })).content).toBe('a.txt:3: size: 10px\n[1 matching line shown; 1 file searched]');
      const invalid = await h.call('search_files', { pattern: '(unclosed' });
      expect(invalid.ok ? undefined : invalid.error.code).toBe('INVALID_PATTERN');
      const inline = await h.call('search_files', { pattern: '(?i)x' });
      expect(inline.ok ? undefined : inline.error.message).toMatch(/ignore_case/);
    });

    it('refuses a path outside and a missing one', async () => {
      const h = await harness();
      const outside = await h.call('search_files', { pattern: 'x', path: '..' });
      const missing = await h.call('search_files', { pattern: 'x', path: 'nope' });
      expect([outside, missing].map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['PATH_OUTSIDE_WORKSPACE', 'NOT_FOUND']);
    });
  });
}
