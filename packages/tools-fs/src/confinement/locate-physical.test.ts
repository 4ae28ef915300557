import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locatePhysical } from './locate-physical.js';
import { canonicalRoot, type WorkspaceRoot } from './workspace-root.js';

let base: string;
let root: WorkspaceRoot;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-locate-')));
  await mkdir(path.join(base, 'ws/src'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'ws/src/a.ts'), 'a');
  await writeFile(path.join(base, 'outside/passwd'), 'secret');
  root = await canonicalRoot(path.join(base, 'ws'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('locatePhysical', () => {
  it('locates an existing file with its lstat', async () => {
    const located = await locatePhysical(root, 'src/./a.ts');
    expect(located).toMatchObject({ ok: true, path: `${root.path}/src/a.ts`, relativePath: 'src/a.ts', missing: 0 });
    expect(located.ok && located.stat?.isFile()).toBe(true);
  });

  it('appends missing components to the nearest existing ancestor, counting them', async () => {
    expect(await locatePhysical(root, 'src/new.ts')).toMatchObject({ ok: true, relativePath: 'src/new.ts', stat: undefined, missing: 1 });
    expect(await locatePhysical(root, 'a/b/c.txt')).toMatchObject({ ok: true, relativePath: 'a/b/c.txt', missing: 3 });
    expect(await locatePhysical(root, 'new/./x')).toMatchObject({ ok: true, relativePath: 'new/x', missing: 2 });
  });

  it('decides on the physical path: a link before .. is followed first', async () => {
    await symlink(path.join(base, 'outside'), path.join(root.path, 'link'));
    await writeFile(path.join(root.path, 'passwd'), 'lexically here');
    expect(await locatePhysical(root, 'link/../ws/src/a.ts')).toMatchObject({ ok: true, relativePath: 'src/a.ts' });
    expect(await locatePhysical(root, 'link/../outside/passwd')).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(await locatePhysical(root, 'link/new.txt')).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('refuses ".." after a missing directory instead of resolving it lexically', async () => {
    expect(await locatePhysical(root, 'missing/../src/a.ts')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await locatePhysical(root, 'missing/../../outside/passwd')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('refuses dangling links, loops and files used as directories', async () => {
    await symlink(path.join(base, 'outside/new.txt'), path.join(root.path, 'ghost'));
    await symlink('nowhere', path.join(root.path, 'inner-ghost'));
    await symlink('loop', path.join(root.path, 'loop'));
    expect(await locatePhysical(root, 'ghost')).toMatchObject({ ok: false, code: 'BROKEN_SYMLINK' });
    expect(await locatePhysical(root, 'inner-ghost/x')).toMatchObject({ ok: false, code: 'BROKEN_SYMLINK' });
    expect(await locatePhysical(root, 'loop')).toMatchObject({ ok: false, code: 'SYMLINK_LOOP' });
    expect(await locatePhysical(root, 'src/a.ts/x')).toMatchObject({ ok: false, code: 'NOT_A_DIRECTORY' });
  });

  it('finds the one entry spelled in another Unicode form, and refuses two', async () => {
    await writeFile(path.join(root.path, 'caf\u00e9.md'), 'nfc');
    expect(await locatePhysical(root, 'cafe\u0301.md')).toMatchObject({ ok: true, relativePath: 'caf\u00e9.md' });
    await mkdir(path.join(root.path, 'e\u0301'));
    expect(await locatePhysical(root, '\u00e9/new.txt')).toMatchObject({ ok: true, relativePath: 'e\u0301/new.txt', missing: 1 });
    await writeFile(path.join(root.path, 'a\u0323\u0301'), '1');
    await writeFile(path.join(root.path, 'a\u0301\u0323'), '2');
    expect(await locatePhysical(root, '\u1ea1\u0301')).toMatchObject({ ok: false, code: 'INVALID_PATH' });
  });

  it('names the path as given in refusals, never where it leads', async () => {
    await symlink(path.join(base, 'outside/passwd'), path.join(root.path, 'leak'));
    const refused = await locatePhysical(root, 'leak');
    expect(refused).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(refused.ok ? '' : refused.message).not.toContain(base);
  });
});
