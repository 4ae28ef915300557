import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from '../fs-error.js';
import { openDirectoryBeneath, type OpenDirectory } from './open-directory.js';
import { canonicalRoot } from './workspace-root.js';
import { writeAtomically } from './write-atomically.js';

let base: string;
let directory: OpenDirectory;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-atomic-')));
  directory = await openDirectoryBeneath(await canonicalRoot(base), 'proc', [], '"."');
});

afterEach(async () => {
  await directory.close();
  await rm(base, { recursive: true, force: true });
});

describe('writeAtomically', () => {
  it('creates, then replaces with a new inode and the given mode, leaving no temporary file', async () => {
    await writeAtomically(directory, 'f.txt', Buffer.from('one'), { display: '"f.txt"' });
    const first = await stat(path.join(base, 'f.txt'));
    await writeAtomically(directory, 'f.txt', Buffer.from('two'), { display: '"f.txt"', mode: 0o700 });
    const second = await stat(path.join(base, 'f.txt'));
    expect(await readFile(path.join(base, 'f.txt'), 'utf8')).toBe('two');
    expect(second.ino).not.toBe(first.ino);
    expect(second.mode & 0o777).toBe(0o700);
    expect(await readdir(base)).toEqual(['f.txt']);
  });

  it('replaces a link at the name instead of writing through it', async () => {
    await writeFile(path.join(base, 'target.txt'), 'target');
    await symlink('target.txt', path.join(base, 'link'));
    await writeAtomically(directory, 'link', Buffer.from('new'), { display: '"link"' });
    expect(await readFile(path.join(base, 'target.txt'), 'utf8')).toBe('target');
    expect(await readFile(path.join(base, 'link'), 'utf8')).toBe('new');
  });

  it('removes the temporary file and keeps the old content when the last check fails', async () => {
    await writeFile(path.join(base, 'f.txt'), 'old');
    const failing = writeAtomically(directory, 'f.txt', Buffer.from('new'), {
      display: '"f.txt"',
      beforeRename: async () => {
        throw new FsError('PATH_CHANGED', 'changed');
      },
    });
    await expect(failing).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    expect(await readFile(path.join(base, 'f.txt'), 'utf8')).toBe('old');
    expect(await readdir(base)).toEqual(['f.txt']);
  });

  it('translates a failed rename (a directory in the way) and cleans up', async () => {
    await mkdir(path.join(base, 'dir/inner'), { recursive: true });
    await expect(writeAtomically(directory, 'dir', Buffer.from('x'), { display: '"dir"' })).rejects.toBeInstanceOf(FsError);
    expect((await readdir(base)).sort()).toEqual(['dir']);
  });
});
