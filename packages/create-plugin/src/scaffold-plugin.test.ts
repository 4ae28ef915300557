import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertPluginConformance } from '@weir/core/testing';
import { isPlugin, type Plugin } from '@weir/core';
import { main } from './main.js';
import { pluginNames } from './plugin-names.js';
import { scaffoldPlugin } from './scaffold-plugin.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'weir-create-plugin-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scaffoldPlugin', () => {
  it('writes a package whose plugin passes the conformance kit and whose skill names itself', async () => {
    const made = await scaffoldPlugin({ dir: join(root, 'weir-tool-words') });
    expect(made).toMatchObject({ packageName: 'weir-tool-words', pluginName: 'words' });
    expect(made.files).toEqual(expect.arrayContaining(['package.json', 'README.md', '.changeset/config.json', 'src/index.test.ts', 'skills/words/SKILL.md']));
    const manifest = JSON.parse(await readFile(join(made.dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'weir-tool-words', type: 'module', weir: { tools: './dist/index.js', skills: './skills' } });
    expect(manifest.devDependencies['@weir/core']).toBe('^0.1.0');
    expect(await readFile(join(made.dir, 'skills/words/SKILL.md'), 'utf8')).toMatch(/^---\nname: words\ndescription: .+\n---\n/);

    // The generated source, run as it is (the workspace's @weir/core stands in for the installed one).
    const module = (await import(join(made.dir, 'src/index.ts'))) as { default: () => Plugin };
    const plugin = module.default();
    expect(isPlugin(plugin) && plugin.name).toBe('words');
    expect(await assertPluginConformance(plugin)).toEqual({ plugin: 'words', tools: ['count_words'], examplesRun: 2 });
  });

  it('takes a scoped name, and refuses a folder that is not empty', async () => {
    await expect(scaffoldPlugin({ dir: join(root, 'x'), name: '@me/weir-plugin-lint-rules' })).resolves.toMatchObject({ pluginName: 'lint-rules' });
    await mkdir(join(root, 'full'));
    await writeFile(join(root, 'full', 'keep.txt'), 'mine');
    await expect(scaffoldPlugin({ dir: join(root, 'full') })).rejects.toThrow(/is not empty \(1 entries\)/);
    expect(await readFile(join(root, 'full', 'keep.txt'), 'utf8')).toBe('mine');
  });
});

describe('pluginNames', () => {
  it('refuses names npm or the skill format would refuse, saying which', () => {
    expect(() => pluginNames('/tmp/My Plugin')).toThrow(/not a valid npm package name/);
    expect(() => pluginNames('/tmp/x', 'weir-tool-a--b')).toThrow(/single hyphens/);
    expect(() => pluginNames('/tmp/weir-')).toThrow(/single hyphens/);
  });
});

describe('the create-plugin command', () => {
  it('makes the package and says what to run next; a usage mistake exits 2, a refusal 1', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const write = (into: string[]) => (chunk: string | Uint8Array) => (into.push(String(chunk)), true);
    const saved = [process.stdout.write, process.stderr.write] as const;
    process.stdout.write = write(out) as typeof process.stdout.write;
    process.stderr.write = write(err) as typeof process.stderr.write;
    try {
      expect(await main([join(root, 'p'), '--name', 'weir-tool-p'], root)).toBe(0);
      expect(await main([], root)).toBe(2);
      expect(await main(['--nope', 'x'], root)).toBe(2);
      expect(await main([join(root, 'p')], root)).toBe(1);
    } finally {
      [process.stdout.write, process.stderr.write] = saved;
    }
    expect(out.join('')).toContain('Made weir-tool-p (plugin "p") in p: 10 files.\nNext: cd p && npm install && npm test\n');
    expect(err.map((line) => line.split('\n')[0])).toEqual([
      '[error] give one folder to make the package in (got 0).',
      expect.stringMatching(/^\[error\] Unknown option '--nope'/),
      expect.stringMatching(/^\[error\] .*is not empty/),
    ]);
  });
});
