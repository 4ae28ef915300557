import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { smallDeps } from '../../test/helpers/small-deps.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import { walkCandidates } from './walk-candidates.js';
import { walkFiles } from './walk-files.js';
import type { WalkOptions } from './walk-rules.js';
import { Workspace } from '../confinement/workspace.js';

describe('walkCandidates', () => {
  let base: string;
  let outside: string;
  let deps: FsToolDeps;
  const options = (extra: Partial<WalkOptions> = {}): WalkOptions => ({ glob: undefined, hidden: false, includeIgnored: false, signal: new AbortController().signal, ...extra });

  const files: Record<string, string> = {
    '.gitignore': 'dist/\n*.log\n',
    'a.ts': 'a',
    'keep.log': 'ignored at the root',
    'src/.ignore': 'secret.ts\n',
    'src/b.ts': 'b',
    'src/secret.ts': 'ignored by .ignore',
    'src/deep/c.ts': 'c',
    'dist/out.js': 'ignored directory',
    '.hidden/h.ts': 'hidden',
    'node_modules/m/index.js': 'installed',
  };

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-candidates-')));
    outside = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-candidates-outside-')));
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(base, name)), { recursive: true });
      await writeFile(path.join(base, name), content);
    }
    await writeFile(path.join(outside, 'secret.txt'), 'outside');
    await symlink(outside, path.join(base, 'link'));
    await symlink(path.join(outside, 'secret.txt'), path.join(base, 'src/file-link.ts'));
    const workspace = await Workspace.create(base);
    deps = smallDeps(workspace);
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const visited = async (start: string, candidates: string[], extra: Partial<WalkOptions> = {}) => {
    const found: string[] = [];
    await walkCandidates(deps, await deps.workspace.locateOrThrow(start, 'list'), candidates, options(extra), async (_directory, walked) => {
      found.push(...walked.map((file) => file.relativePath));
    });
    return found;
  };

  const everything = ['src/deep/c.ts', 'keep.log', 'a.ts', 'src/secret.ts', 'src/b.ts', 'dist/out.js', '.hidden/h.ts', 'node_modules/m/index.js', '.gitignore', 'src/.ignore'];

  it('keeps only what the full walk would visit, in its order (files of a directory by name, then its directories)', async () => {
    const full: string[] = [];
    await walkFiles(deps, await deps.workspace.locateOrThrow('.', 'list'), options(), async (_directory, walked) => {
      full.push(...walked.map((file) => file.relativePath));
    });
    expect(await visited('.', everything)).toEqual(full.filter((file) => !file.includes('file-link')));
    expect(await visited('.', everything)).toEqual(['a.ts', 'src/b.ts', 'src/deep/c.ts']);
    expect(await visited('.', everything, { hidden: true, includeIgnored: true })).toEqual(['.gitignore', 'a.ts', 'keep.log', '.hidden/h.ts', 'dist/out.js', 'src/.ignore', 'src/b.ts', 'src/secret.ts', 'src/deep/c.ts']);
    expect(await visited('.', everything, { glob: 'node_modules/**' })).toEqual(['node_modules/m/index.js']);
    // The root's rules hold below a start directory too.
    expect(await visited('src', ['deep/c.ts', 'secret.ts', 'b.ts'])).toEqual(['src/b.ts', 'src/deep/c.ts']);
  });

  it('drops paths with empty, "." or ".." names and never follows a link on the way', async () => {
    const found = await visited('.', ['../outside/secret.txt', 'src/../a.ts', './a.ts', 'src//b.ts', '/etc/passwd', 'link/secret.txt', 'src/file-link.ts', 'missing/x.ts', 'a.ts/x']);
    // "src/file-link.ts" reaches the visitor by name; its reader opens it no-follow and gets nothing.
    expect(found).toEqual(['src/file-link.ts']);
  });
});
