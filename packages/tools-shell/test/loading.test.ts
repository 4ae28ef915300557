import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type ToolExecution } from '@weir/core';
import { shellTools } from '@weir/tools-shell';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace, shellFixture } from './support/shell-workspace.js';

const cleanup: string[] = [];
afterEach(async () => {
  for (const dir of cleanup.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function loadError(options: Parameters<typeof shellTools>[0]): Promise<{ code?: string; cause?: { code?: string }; message: string }> {
  const harness = createHarness();
  try {
    await harness.use(shellTools(options));
  } catch (error) {
    return error as never;
  } finally {
    expect(harness.tools.get('run_command')).toBeUndefined();
    await harness.close();
  }
  throw new Error('the plugin loaded');
}

describe('without a working sandbox the plugin refuses to load', { timeout: 60_000 }, () => {
  it('when bubblewrap is missing', async () => {
    const root = await makeWorkspace();
    cleanup.push(root);
    const error = await loadError({ root, bwrapPath: '/nonexistent/bwrap' });
    expect(error.code).toBe('PLUGIN_SETUP_FAILED');
    expect(error.cause?.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toContain('unsafeNoSandbox: true');
  });

  it('when bwrap is not on PATH: the reason says bubblewrap is not installed and how to install it', async () => {
    const root = await makeWorkspace();
    cleanup.push(root);
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent-bin';
    let error;
    try {
      error = await loadError({ root });
    } finally {
      process.env.PATH = saved;
    }
    expect(error.cause?.code).toBe('SANDBOX_UNAVAILABLE');
    expect((error.cause as { reason?: string } | undefined)?.reason).toBe('bubblewrap is not installed (no bwrap on PATH); install it (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)');
  });

  it('when bubblewrap cannot build a sandbox (user namespaces refused)', async () => {
    const root = await makeWorkspace();
    const bin = await mkdtemp(join(tmpdir(), 'weir-fake-bwrap-'));
    cleanup.push(root, bin);
    const fake = join(bin, 'bwrap');
    await writeFile(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    await chmod(bin, 0o755);
    await chmod(fake, 0o755);
    const error = await loadError({ root, bwrapPath: fake });
    expect(error.cause?.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toContain('No permissions to create new namespace');
  });

  it.runIf(process.getuid?.() === 0)('when the workspace is not writable by the sandbox user', async () => {
    // mkdtemp as root: owned by root, mode 0700; commands would run as nobody.
    const root = await mkdtemp(join(tmpdir(), 'weir-shell-root-owned-'));
    cleanup.push(root);
    const error = await loadError({ root });
    expect(error.cause?.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toContain(`cannot enter ${root} (mode 0700`);
    expect(error.message).toContain('uid 65534');
    expect(error.message).toContain('user: { uid, gid }');
    expect(error.message).not.toContain('user namespaces');
  });

  it.runIf(process.getuid?.() === 0)('when a directory above the workspace cannot be entered by the sandbox user, naming it, the user and both fixes', async () => {
    // /root/project's shape: a folder only root may enter, holding a workspace anyone may write.
    const parent = await mkdtemp(join(tmpdir(), 'weir-shell-root-only-'));
    cleanup.push(parent);
    const root = join(parent, 'project');
    await mkdir(root);
    await chmod(root, 0o777);
    const error = await loadError({ root });
    expect(error.cause?.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toContain(`cannot enter ${parent} (mode 0700, owner uid 0`);
    expect(error.message).toContain('uid 65534, gid 65534');
    expect(error.message).toContain(`chmod o+x ${parent}`);
    expect(error.message).toContain('user: { uid, gid }');
    expect(error.message).not.toContain('user namespaces');
    // Either fix works: the folder opened for others, the plugin loads.
    await chmod(parent, 0o711);
    const harness = createHarness();
    await harness.use(shellTools({ root }));
    expect(harness.tools.get('run_command')).toBeDefined();
    await harness.close();
  });

  it('on invalid options, at once', () => {
    expect(() => shellTools({ root: '' })).toThrow(TypeError);
    expect(() => shellTools({ root: '/x', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => shellTools({ root: '/x', writable: ['relative'] })).toThrow(/absolute/);
    expect(() => shellTools({ root: '/x', protect: ['../up'] })).toThrow(/inside/);
    expect(() => shellTools({ root: '/x', env: { 'BAD NAME': 'x' } })).toThrow(/env/);
    expect(() => shellTools({ root: '/x', user: { uid: 0, gid: 0 } })).toThrow(/root/);
    expect(() => shellTools({ root: '/x', netwrok: true } as never)).toThrow(/netwrok/);
  });
});

describe('unsafeNoSandbox', { timeout: 60_000 }, () => {
  it('runs unconfined, and says so in every result', async () => {
    const shell = await shellFixture({ unsafeNoSandbox: true });
    try {
      const outside = await mkdtemp(join(tmpdir(), 'weir-shell-unsafe-'));
      cleanup.push(outside);
      const result = await shell.run(`echo written > ${outside}/proof; id -u`);
      expect(result.ok).toBe(true);
      if (result.ok) {
        expect((result.value as { sandboxed: boolean }).sandboxed).toBe(false);
        expect(result.content).toContain('WITHOUT a sandbox');
      }
      // The write outside the workspace landed: there is no boundary.
      expect(await readFile(join(outside, 'proof'), 'utf8')).toBe('written\n');
      expect(shell.harness.tools.get('run_command')?.description).toContain('WITHOUT a sandbox');
    } finally {
      await shell.close();
    }
  });
});

describe('run_command', { timeout: 60_000 }, () => {
  it('is a dangerous tool', async () => {
    const shell = await shellFixture();
    try {
      expect(shell.harness.tools.get('run_command')?.tier).toBe('dangerous');
    } finally {
      await shell.close();
    }
  });

  it('streams output to exec.progress when the core provides it', async () => {
    const shell = await shellFixture();
    try {
      const tool = shell.harness.tools.get('run_command')!;
      const updates: string[] = [];
      const exec = { signal: new AbortController().signal, callId: 'c1', callKey: 'k1', run: { id: 'r1' }, toolName: 'run_command', attempt: 1, logger: undefined as never, sandbox: undefined, progress: (update: { message?: string }) => updates.push(update.message ?? '') } as ToolExecution;
      const value = await tool.execute({ command: 'echo one; sleep 0.2; echo two' }, exec);
      expect(updates.join('')).toBe('one\ntwo\n');
      expect(updates.length).toBeGreaterThanOrEqual(2);
      expect((value as { output: string }).output).toBe('one\ntwo\n');
    } finally {
      await shell.close();
    }
  });

  it('a model cannot turn the sandbox off or widen it: unknown fields are invalid arguments', async () => {
    const shell = await shellFixture();
    try {
      for (const extra of [{ dangerouslyDisableSandbox: true }, { unsafeNoSandbox: true }, { network: true }, { requires_approval: false }]) {
        const result = await shell.run('echo ran', extra);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.code).toBe('INVALID_ARGUMENTS');
      }
    } finally {
      await shell.close();
    }
  });

  it('renders the output with the exit status for the model', async () => {
    const shell = await shellFixture();
    try {
      const result = await shell.run('echo hi; exit 3');
      expect(result.content).toBe('hi\n[exit code 3]');
    } finally {
      await shell.close();
    }
  });
});
