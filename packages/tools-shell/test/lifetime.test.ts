import { chown, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, processesWith, shellFixture, type ShellFixture } from './support/shell-workspace.js';

// Deadlines, aborts, limits and unloads, on real processes: after each, /proc shows nothing left.

const marker = (name: string) => `${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

describe('deadlines and kills', { timeout: 60_000 }, () => {
  let shell: ShellFixture;
  beforeAll(async () => {
    shell = await shellFixture({ timeoutMs: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await shell.close();
  }, 60_000);

  it('a command that ignores SIGTERM is killed at its deadline, with the output it wrote', async () => {
    const tag = marker('ignores-term');
    const started = performance.now();
    const result = await shell.value(`trap '' TERM; echo before; exec -a ${tag} sleep 30`, { timeoutMs: 500 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.killed).toBe('deadline');
    expect(result.output).toBe('before\n');
    expect(await processesWith(tag)).toEqual([]);
  });

  it('background, nohup and setsid children do not survive the call', async () => {
    const tag = marker('escapee');
    const result = await shell.value(`(exec -a ${tag}-bg sleep 600) & nohup bash -c 'exec -a ${tag}-nohup sleep 600' >/dev/null 2>&1 & setsid bash -c 'exec -a ${tag}-setsid sleep 600' & sleep 0.2; echo started`);
    expect(result.output).toContain('started');
    expect(result.exitCode).toBe(0);
    expect(await processesWith(tag)).toEqual([]);
  });

  it('an abort kills the whole group at once', async () => {
    const tag = marker('aborted');
    const controller = new AbortController();
    const running = shell.harness.executeToolCall({ id: 'abort-1', name: 'run_command', arguments: { command: `(exec -a ${tag} sleep 600) & exec -a ${tag}-main sleep 600` } }, { signal: controller.signal });
    // The launcher's command lines carry the tag too: wait for the two sleeps besides them.
    await waitFor(async () => (await processesWith(`${tag}`)).length >= 4);
    const started = performance.now();
    controller.abort();
    const result = await running;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('ABORTED');
    await waitFor(async () => (await processesWith(tag)).length === 0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('a runaway `yes` is stopped by the output cap: head and tail kept, the middle counted', async () => {
    const small = await shellFixture({ maxOutputBytes: 1_000, killAfterOutputBytes: 2_000_000 });
    try {
      const started = performance.now();
      const tag = marker('yes');
      const result = await small.value(`yes ${tag}`);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(result.killed).toBe('output');
      expect(result.truncated).toBe(true);
      expect(result.outputBytes).toBeGreaterThan(2_000_000);
      expect(result.elidedBytes).toBe(result.outputBytes - 1_000);
      expect(result.output.startsWith(`${tag}\n${tag}\n`)).toBe(true);
      expect(result.output).toMatch(/\[\.\.\. \d+ bytes of output elided \.\.\.\]\n/);
      expect(result.output.endsWith(`${tag}\n`)).toBe(true);
      expect(result.output.length).toBeLessThan(1_100);
      expect(await processesWith(tag)).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('stdout and stderr interleave in the order written; stdin is empty', async () => {
    const result = await shell.value('echo one; echo two >&2; echo three; echo four >&2; read line; echo "read:$?"');
    expect(result.output).toBe('one\ntwo\nthree\nfour\nread:1\n');
  });

  it('the exit code and the signal are in the value', async () => {
    expect((await shell.value('exit 7')).exitCode).toBe(7);
    // Inside the sandbox a command ended by a signal exits 128 + N, as a shell reports it.
    const killed = await shell.value('kill -KILL $$');
    expect(killed.exitCode).toBe(137);
    expect(killed.signal).toBe(null);
    // The sandbox killed from outside reports the signal.
    const timedOut = await shell.value('sleep 30', { timeoutMs: 200 });
    expect(timedOut.signal).toBe('SIGTERM');
    expect(timedOut.exitCode).toBe(null);
  });
});

describe('limits', { timeout: 60_000 }, () => {
  it('a fork bomb hits the process limit and the deadline; the machine keeps answering', async () => {
    // A uid of its own, so that its process count does not starve the other tests' commands.
    const root = await makeWorkspace();
    if (process.getuid?.() === 0) await chown(root, 64_999, 64_999);
    const shell = await shellFixture({ root, user: process.getuid?.() === 0 ? { uid: 64_999, gid: 64_999 } : undefined, limits: { processes: 64 }, timeoutMs: 3_000 });
    const tag = marker('bomb');
    try {
      const started = performance.now();
      const result = await shell.value(`: ${tag}; bomb() { bomb | bomb & }; bomb; sleep 60`);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(result.killed).toBe('deadline');
      expect(result.output).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
      await waitFor(async () => (await processesWith(tag)).length === 0);
      // The harness still runs commands.
      expect((await shell.value('echo alive')).output).toBe('alive\n');
    } finally {
      await shell.close();
    }
  });

  it('a file larger than the limit is cut by SIGXFSZ', async () => {
    const shell = await shellFixture({ limits: { fileSizeBytes: 100_000 } });
    try {
      const result = await shell.value('head -c 1000000 /dev/zero > big; echo "status:$?"');
      expect(result.output).toMatch(/File size limit exceeded/);
      expect(result.output).toContain('status:153');
      expect((await stat(join(shell.root, 'big'))).size).toBeLessThanOrEqual(100_000);
    } finally {
      await shell.close();
    }
  });

  it('CPU time is limited per process (SIGXCPU)', async () => {
    const shell = await shellFixture({ limits: { cpuSeconds: 1 } });
    try {
      const result = await shell.value('bash -c "while :; do :; done"; echo "status:$?"');
      expect(result.output).toContain('status:152');
    } finally {
      await shell.close();
    }
  });
});

describe('concurrency and unload', { timeout: 60_000 }, () => {
  it('50 concurrent commands, each leaving a background child, leave no process behind', async () => {
    const shell = await shellFixture();
    const tag = marker('many');
    try {
      const results = await Promise.all(Array.from({ length: 50 }, (_, index) => shell.value(`(exec -a ${tag} sleep 600) & echo ${index}`)));
      expect(results.map((result) => result.output.trim())).toEqual(Array.from({ length: 50 }, (_, index) => String(index)));
      expect(await processesWith(tag)).toEqual([]);
    } finally {
      await shell.close();
    }
  });

  it('unloading the plugin kills what is running and waits for it', async () => {
    const shell = await shellFixture();
    const tag = marker('unload');
    const running = shell.run(`exec -a ${tag} sleep 600`);
    await waitFor(async () => (await processesWith(tag)).length >= 3);
    await shell.harness.close();
    expect(await processesWith(tag)).toEqual([]);
    const result = await running;
    expect(result.ok && (result.value as { signal: string | null }).signal).toBe('SIGKILL');
    await rm(shell.root, { recursive: true, force: true });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the harness process dies', { timeout: 60_000 }, () => {
  it('a SIGKILLed harness takes its sandboxes with it (parent-death signal)', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const root = await makeWorkspace();
    const tag = marker('orphan');
    const script = fileURLToPath(new URL('./fixtures/harness-child.ts', import.meta.url));
    // One process (node with tsx as a loader), so that SIGKILL hits the harness itself.
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@weir/source', script, root, tag], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await waitFor(async () => (await processesWith(`${tag} 600`)).length >= 1, 20_000);
      child.kill('SIGKILL');
      await waitFor(async () => (await processesWith(tag)).length === 0, 10_000);
    } finally {
      child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
