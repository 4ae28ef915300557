import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWorkspaceBlock, workspaceBlock } from './workspace-reach.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(parentMode: number, rootMode: number): { parent: string; root: string } {
  const parent = mkdtempSync(join(tmpdir(), 'weir-reach-'));
  made.push(parent);
  const root = join(parent, 'ws');
  mkdirSync(root);
  chmodSync(root, rootMode);
  chmodSync(parent, parentMode);
  return { parent, root };
}

const stranger = { uid: 54321, gid: 54321 };

describe('workspaceBlock', () => {
  it('names the first directory the user cannot enter', () => {
    const { parent, root } = tree(0o700, 0o777);
    expect(workspaceBlock(root, stranger)).toMatchObject({ path: parent, lacks: 'search' });
  });

  it('names the workspace when the user may enter but not write', () => {
    const { root } = tree(0o711, 0o755);
    expect(workspaceBlock(root, stranger)).toMatchObject({ path: root, lacks: 'write' });
  });

  it('finds nothing when every directory is searchable and the workspace writable', () => {
    const { root } = tree(0o711, 0o777);
    expect(workspaceBlock(root, stranger)).toBeUndefined();
  });

  it('reads the owner bits for the owner and the group bits for the group', () => {
    const { root } = tree(0o711, 0o700);
    const owner = { uid: process.getuid?.() ?? 0, gid: 54321 };
    expect(workspaceBlock(root, owner)).toBeUndefined();
    chmodSync(root, 0o070);
    expect(workspaceBlock(root, { uid: 54321, gid: process.getgid?.() ?? 0 })).toBeUndefined();
  });

  it('says in one line who the user is, what blocks it and both fixes', () => {
    const { parent, root } = tree(0o700, 0o777);
    const line = describeWorkspaceBlock(root, stranger, workspaceBlock(root, stranger)!);
    expect(line).not.toContain('\n');
    expect(line).toContain(`uid 54321, gid 54321`);
    expect(line).toContain(`cannot enter ${parent} (mode 0700`);
    expect(line).toContain(`chmod o+x ${parent}`);
    expect(line).toContain('user: { uid, gid }');
  });
});
