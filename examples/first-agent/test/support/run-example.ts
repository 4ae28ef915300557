import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsxCli = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** How an example's run ended. */
export interface ExampleRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs an example as a user would (`tsx --conditions=@weir/source`, from the repository root), as
 * its own process on this Node, with no OPENAI_* or ANTHROPIC_* variable but those in `env`. Never rejects.
 */
export function runExample(script: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<ExampleRun> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OPENAI_') && !name.startsWith('ANTHROPIC_')) clean[name] = value;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsxCli, '--conditions=@weir/source', `examples/first-agent/${script}`, ...args],
      { cwd: repo, env: { ...clean, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
