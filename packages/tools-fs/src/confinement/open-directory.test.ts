import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, open, readdir, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenStrategy } from './held-directory.js';
import { assertOpenedInside, openDirectoryBeneath, openRegularFile } from './open-directory.js';
import { canonicalRoot, type WorkspaceRoot } from './workspace-root.js';

let base: string;
let root: WorkspaceRoot;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-open-')));
  await mkdir(path.join(base, 'ws/a/b'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'ws/a/b/f.txt'), 'inside');
  await writeFile(path.join(base, 'outside/f.txt'), 'outside');
  root = await canonicalRoot(path.join(base, 'ws'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.each(['proc', 'path'] as const)('opening beneath the root (%s)', (strategy: OpenStrategy) => {
  it('walks to a directory and opens a regular file in it', async () => {
    const directory = await openDirectoryBeneath(root, strategy, ['a', 'b'], '"a/b"');
    try {
      expect(directory.path).toBe(`${root.path}/a/b`);
      const file = await openRegularFile(directory, 'f.txt', '"a/b/f.txt"');
      expect((await file.handle.readFile()).toString()).toBe('inside');
      await file.handle.close();
    } finally {
      await directory.close();
    }
  });

  it('never follows a link on the way: a directory that became a link is PATH_CHANGED', async () => {
    await rm(path.join(root.path, 'a'), { recursive: true });
    await symlink(path.join(base, 'outside'), path.join(root.path, 'a'));
    await expect(openDirectoryBeneath(root, strategy, ['a'], '"a"')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    const top = await openDirectoryBeneath(root, strategy, [], '"."');
    await expect(openRegularFile(top, 'a', '"a"')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    await top.close();
  });

  it('opens a FIFO without hanging, and refuses it as not a regular file', async () => {
    execFileSync('mkfifo', [path.join(root.path, 'pipe')]);
    const top = await openDirectoryBeneath(root, strategy, [], '"."');
    await expect(openRegularFile(top, 'pipe', '"pipe"')).rejects.toMatchObject({ code: 'NOT_A_REGULAR_FILE' });
    await expect(openRegularFile(top, 'a', '"a"')).rejects.toMatchObject({ code: 'IS_A_DIRECTORY' });
    await expect(openRegularFile(top, 'missing', '"missing"')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await top.close();
  });

  it('creates missing directories only when asked, beneath the directory it holds', async () => {
    await expect(openDirectoryBeneath(root, strategy, ['new', 'deeper'], '"new/deeper"')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const created = await openDirectoryBeneath(root, strategy, ['new', 'deeper'], '"new/deeper"', { create: true });
    await created.close();
    expect((await lstat(path.join(root.path, 'new/deeper'))).isDirectory()).toBe(true);
    expect(await readdir(path.join(base, 'outside'))).toEqual(['f.txt']);
  });

  it('refuses a root replaced since it was canonicalised', async () => {
    // Renamed away, not removed, so the new directory cannot reuse the inode number.
    await rename(root.path, `${root.path}.old`);
    await mkdir(root.path);
    await expect(openDirectoryBeneath(root, strategy, [], '"."')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
  });
});

describe('assertOpenedInside', () => {
  it('asks the kernel where a descriptor is, and refuses one outside the root (Linux)', async () => {
    const outside = await open(path.join(base, 'outside/f.txt'), 'r');
    const inside = await open(path.join(root.path, 'a/b/f.txt'), 'r');
    try {
      await expect(assertOpenedInside(root, outside, 'proc', '"x"')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
      await expect(assertOpenedInside(root, inside, 'proc', '"x"')).resolves.toBeUndefined();
      // Without /proc nothing can be asked: the check is a no-op (the residual window of the README).
      await expect(assertOpenedInside(root, outside, 'path', '"x"')).resolves.toBeUndefined();
    } finally {
      await outside.close();
      await inside.close();
    }
  });
});
