import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectedMounts } from './protected-mounts.js';

describe('protectedMounts', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weir-protected-'));
    await mkdir(join(root, '.git', 'a', 'b'), { recursive: true });
    await mkdir(join(root, 'config', 'deploy', 'keys'), { recursive: true });
    await writeFile(join(root, 'plain'), '');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const shape = async (protect: string[]) => (await protectedMounts(root, protect)).map((mount) => [mount.path.slice(root.length + 1), mount.readOnly]);

  it('binds each ancestor onto itself before the protected path, shallower first', async () => {
    expect(await shape(['config/deploy/keys', '.git'])).toEqual([['.git', true], ['config', false], ['config/deploy', false], ['config/deploy/keys', true]]);
  });

  it('never binds read-write inside a read-only path, and skips what is missing', async () => {
    expect(await shape(['.git/a/b', '.git', 'missing/x', 'plain/under-a-file'])).toEqual([['.git', true], ['.git/a/b', true]]);
  });

  it('a path protected and also the ancestor of another stays read-only', async () => {
    expect(await shape(['config', 'config/deploy/keys'])).toEqual([['config', true], ['config/deploy/keys', true]]);
  });
});
