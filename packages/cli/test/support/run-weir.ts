// Runs weir as a user would, as its own process: node with tsx (the sources, no build), from a
// workspace folder, with a WEIR_HOME of the test's own and no OPENAI_* variable but those given.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
export const bin = join(repo, 'packages/cli/src/bin.ts');
export const tsxLoader = pathToFileURL(join(repo, 'node_modules/tsx/dist/esm/index.mjs')).href;
/** The command line that starts weir from its sources, for a shell or tmux. */
export const weirCommand = [process.execPath, '--import', tsxLoader, '--conditions=@weir/source', bin];

export interface WeirRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A temporary folder with a copy of the example workspace, and a weir home beside it. */
export interface Sandbox {
  readonly workspace: string;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly remove: () => void;
}

export function makeSandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'weir-cli-test-'));
  const workspace = join(dir, 'workspace');
  // Not the example's .weir: the README's demo (run by quick-start.test.ts) keeps its sessions there.
  const example = join(repo, 'examples/cli/workspace');
  cpSync(example, workspace, { recursive: true, filter: (source) => source !== join(example, '.weir') });
  const home = join(dir, 'home');
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OPENAI_') && name !== 'WEIR_HOME') env[name] = value;
  env.WEIR_HOME = home;
  env.NO_COLOR = '1';
  return { workspace, home, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `weir <args>` in `cwd`; never rejects. */
export function runWeir(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<WeirRun> {
  return new Promise((resolve) => {
    const [node, ...rest] = weirCommand;
    execFile(node!, [...rest, ...args], { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, signal: (error?.signal as NodeJS.Signals | undefined) ?? null, stdout, stderr });
    });
  });
}
