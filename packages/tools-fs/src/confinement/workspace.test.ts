import { mkdir, mkdtemp, readFile, realpath, rm, writeFile, link } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from './workspace.js';

let base: string;
let root: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-workspace-')));
  root = path.join(base, 'ws');
  await mkdir(path.join(root, 'dir'), { recursive: true });
  await writeFile(path.join(root, 'a.txt'), 'a');
  await writeFile(path.join(base, 'outside.txt'), 'outside');
  workspace = await Workspace.create(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('Workspace', () => {
  it('uses /proc on Linux', () => {
    expect(workspace.strategy).toBe(process.platform === 'linux' ? 'proc' : 'path');
    expect(workspace.root).toBe(root);
  });

  it('resolve gives the Sandbox shape: canonical path and relative path, or a code and a message', async () => {
    expect(await workspace.resolve('dir/../a.txt', 'read')).toEqual({ ok: true, path: path.join(root, 'a.txt'), relativePath: 'a.txt' });
    expect(await workspace.resolve('new/file.txt', 'write')).toEqual({ ok: true, path: path.join(root, 'new/file.txt'), relativePath: 'new/file.txt' });
    expect(await workspace.resolve('../outside.txt', 'read')).toEqual({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE', message: expect.any(String) });
  });

  it.each([
    ['a.txt', 'read', 'ok'],
    ['dir', 'read', 'IS_A_DIRECTORY'],
    ['missing', 'read', 'NOT_FOUND'],
    ['dir', 'list', 'ok'],
    ['a.txt', 'list', 'NOT_A_DIRECTORY'],
    ['missing', 'list', 'NOT_FOUND'],
    ['a.txt', 'write', 'ok'],
    ['missing/new.txt', 'write', 'ok'],
    ['dir', 'write', 'IS_A_DIRECTORY'],
    ['dir/', 'write', 'INVALID_PATH'],
    ['.', 'write', 'IS_A_DIRECTORY'],
  ] as const)('locate(%j, %s) is %s', async (input, intent, expected) => {
    const located = await workspace.locate(input, intent);
    expect(located.ok ? 'ok' : located.code).toBe(expected);
  });

  it('refuses to write a file with other hard links, but reads it', async () => {
    await link(path.join(base, 'outside.txt'), path.join(root, 'h'));
    expect(await workspace.locate('h', 'write')).toMatchObject({ ok: false, code: 'HARD_LINKED' });
    expect(await workspace.locate('h', 'read')).toMatchObject({ ok: true });
  });

  it('replaceFile refuses when the file appeared, vanished or changed since it was located', async () => {
    const produce = async () => Buffer.from('new');
    const missing = await workspace.locateOrThrow('late.txt', 'write');
    await writeFile(path.join(root, 'late.txt'), 'someone else');
    await expect(workspace.replaceFile(missing, '"late.txt"', { createParents: false, produce })).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    expect(await readFile(path.join(root, 'late.txt'), 'utf8')).toBe('someone else');

    const existing = await workspace.locateOrThrow('a.txt', 'write');
    const changing = workspace.replaceFile(existing, '"a.txt"', {
      createParents: false,
      produce: async () => {
        // Another writer changes the file in place while the new content is prepared.
        await writeFile(path.join(root, 'a.txt'), 'changed meanwhile');
        return Buffer.from('new');
      },
    });
    await expect(changing).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('changed meanwhile');
  });

  it('replaceFile does not create parents unless asked', async () => {
    const located = await workspace.locateOrThrow('x/y.txt', 'write');
    await expect(workspace.replaceFile(located, '"x/y.txt"', { createParents: false, produce: async () => Buffer.from('') })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(workspace.replaceFile(located, '"x/y.txt"', { createParents: true, produce: async () => Buffer.from('y') })).resolves.toMatchObject({ created: true, bytes: 1 });
  });

  it('stops before the rename once the call is aborted', async () => {
    const located = await workspace.locateOrThrow('a.txt', 'write');
    const controller = new AbortController();
    const aborted = workspace.replaceFile(located, '"a.txt"', {
      createParents: false,
      signal: controller.signal,
      produce: async () => {
        controller.abort(new Error('call aborted'));
        return Buffer.from('late');
      },
    });
    await expect(aborted).rejects.toThrow('call aborted');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a');
  });
});
