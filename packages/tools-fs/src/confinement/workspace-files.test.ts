import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspaceFiles } from './workspace-files.js';

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'weir-workspace-files-'));
  root = join(base, 'ws');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'a.txt'), 'inside');
  await writeFile(join(base, 'secret.txt'), 'outside');
  await symlink(join(base, 'secret.txt'), join(root, 'leak'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('openWorkspaceFiles', () => {
  it('reads and lists inside the root, through the file tools\' validator', async () => {
    const files = await openWorkspaceFiles(root);
    expect(await files.read('src/a.txt', 1024)).toMatchObject({ ok: true, relativePath: 'src/a.txt', bytes: Buffer.from('inside') });
    expect(await files.list('.', 100)).toMatchObject({ ok: true, entries: [{ name: 'leak', kind: 'symlink' }, { name: 'src', kind: 'directory' }], complete: true });
    expect(await files.read('src/a.txt', 3)).toMatchObject({ ok: false, code: 'TOO_LARGE' });
  });

  it('refuses a path outside the root and a link out, and gives them no version', async () => {
    const files = await openWorkspaceFiles(root);
    expect(await files.read('../secret.txt', 1024)).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(await files.read(join(base, 'secret.txt'), 1024)).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(await files.read('leak', 1024)).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(await files.version('leak')).toBeUndefined();
    expect(await files.list('..', 100)).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('a file\'s version changes when it is written', async () => {
    const files = await openWorkspaceFiles(root);
    const before = await files.version('src/a.txt');
    expect(before).toMatchObject({ relativePath: 'src/a.txt', version: expect.any(String) });
    await writeFile(join(root, 'src', 'a.txt'), 'changed, and longer');
    expect((await files.version('src/a.txt'))?.version).not.toBe(before?.version);
  });
});
