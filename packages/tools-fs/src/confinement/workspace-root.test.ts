import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { canonicalRoot } from './workspace-root.js';

let base: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-root-')));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

it('canonicalises the root once, through links', async () => {
  await symlink(base, path.join(base, 'alias'));
  const root = await canonicalRoot(path.join(base, 'alias', '.'));
  expect(root.path).toBe(base);
  expect(typeof root.ino).toBe('bigint');
  expect(Object.isFrozen(root)).toBe(true);
});

it('throws on a root that is not an existing directory', async () => {
  await writeFile(path.join(base, 'file'), '');
  await expect(canonicalRoot(path.join(base, 'file'))).rejects.toThrow(/not a directory/);
  await expect(canonicalRoot(path.join(base, 'missing'))).rejects.toThrow(/"[^"]*missing" does not exist\.$/);
  await expect(canonicalRoot('')).rejects.toThrow(TypeError);
  await expect(canonicalRoot(42)).rejects.toThrow(TypeError);
});
