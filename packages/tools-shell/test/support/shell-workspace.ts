import { chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness, type Logger, type ToolResult } from '@weir/core';
import { shellTools, type CommandResult, type ShellToolsOptions } from '@weir/tools-shell';

/** A temporary directory owned by the sandbox user when the tests run as root (as CI does). */
export async function makeWorkspace(prefix = 'weir-shell-ws-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) await chown(dir, 65534, 65534);
  return dir;
}

export interface ShellFixture {
  readonly root: string;
  readonly harness: Harness;
  readonly run: (command: string, extra?: Record<string, unknown>) => Promise<ToolResult>;
  /** Runs and expects success; returns the value. */
  readonly value: (command: string, extra?: Record<string, unknown>) => Promise<CommandResult>;
  readonly close: () => Promise<void>;
}

let callCount = 0;

/** A harness with `shellTools` loaded on a fresh workspace. */
export async function shellFixture(options: Partial<ShellToolsOptions> = {}, logger?: Logger): Promise<ShellFixture> {
  const root = options.root ?? (await makeWorkspace());
  const harness = createHarness(logger === undefined ? {} : { logger });
  await harness.use(shellTools({ ...options, root }));
  const run = (command: string, extra: Record<string, unknown> = {}) => harness.executeToolCall({ id: `call-${++callCount}`, name: 'run_command', arguments: { command, ...extra } });
  const value = async (command: string, extra?: Record<string, unknown>) => {
    const result = await run(command, extra);
    if (!result.ok) throw new Error(`run_command failed: ${result.content}`);
    return result.value as CommandResult;
  };
  return {
    root,
    harness,
    run,
    value,
    close: async () => {
      await harness.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Pids of live processes whose command line contains `marker` (zombies excluded). */
export async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (!cmdline.includes(marker)) continue;
      const status = await readFile(`/proc/${name}/status`, 'utf8');
      if (/^State:\s+Z/m.test(status)) continue;
      found.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}
