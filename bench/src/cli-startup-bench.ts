import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printTable } from './measure.js';

/**
 * The weir CLI's start-up, on the built binary (`packages/cli/dist/bin.js`, plain node, no tsx):
 * the wall time of `weir --version`, and the time from spawning `weir` until its first prompt
 * (`> `) is written, each a fresh process, median of the runs, interleaved with `node -e 0` (the
 * cost of a process that does nothing) so the machine's load hits them alike. The interactive run
 * is in a copy of examples/cli/workspace with standard input a pipe (the same start-up path as a
 * terminal; the prompt is read from a pipe instead of the keyboard), and ends with `/exit`.
 * Target: each at most 300 ms.
 */

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(REPO, 'packages', 'cli', 'dist', 'bin.js');
const TARGET_MS = 300;
const TIMEOUT_MS = 20_000;

export interface CliStartupFigure {
  readonly name: string;
  readonly ms: number;
  readonly target: boolean;
}

function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_OPTIONS: '', WEIR_HOME: home, NO_COLOR: '1' };
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OPENAI_') && env[name] === undefined) env[name] = value;
  env.NODE_OPTIONS = '';
  return env;
}

function timeSync(args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: TIMEOUT_MS });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${args.join(' ')} failed (${child.error?.message ?? `exit ${child.status}`}): ${child.stderr.slice(0, 500)}`);
  return ms;
}

/** Spawns `weir` and resolves to the milliseconds until its first prompt; then ends it with /exit. */
function timeFirstPrompt(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let promptMs: number | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (promptMs === undefined && /(^|\n)> /.test(out)) {
        promptMs = Number(process.hrtime.bigint() - started) / 1e6;
        child.stdin.end('/exit\n');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (promptMs !== undefined && code === 0) resolve(promptMs);
      else reject(new Error(`weir did not show its prompt and exit 0 (exit ${String(code)}): ${(out + err).slice(0, 500)}`));
    });
  });
}

/** Runs and prints the CLI start-up section. */
export async function cliStartupBench({ quick }: { quick: boolean }): Promise<CliStartupFigure[]> {
  if (!existsSync(BIN)) throw new Error(`The CLI start-up is measured on the built binary; run \`npx -y pnpm@10 build\` first (no ${BIN}).`);
  const runs = quick ? 3 : 15;
  const dir = mkdtempSync(join(tmpdir(), 'weir-cli-bench-'));
  try {
    const workspace = join(dir, 'workspace');
    cpSync(join(REPO, 'examples', 'cli', 'workspace'), workspace, { recursive: true, filter: (source) => !source.endsWith('/.weir') });
    const env = cleanEnv(join(dir, 'home'));
    const samples = { node: [] as number[], version: [] as number[], prompt: [] as number[] };
    // Round 0 warms the disk cache and is not counted.
    for (let round = 0; round <= runs; round += 1) {
      const node = timeSync(['-e', '0'], workspace, env);
      const version = timeSync([BIN, '--version'], workspace, env);
      const prompt = await timeFirstPrompt(workspace, env);
      if (round === 0) continue;
      samples.node.push(node);
      samples.version.push(version);
      samples.prompt.push(prompt);
    }
    const figures: CliStartupFigure[] = [
      { name: 'node -e 0', ms: median(samples.node), target: false },
      { name: 'weir --version (whole process)', ms: median(samples.version), target: true },
      { name: 'weir: spawn to the first prompt', ms: median(samples.prompt), target: true },
    ];
    console.log(`\nCLI start-up: the built binary, fresh processes, median of ${runs} runs each, interleaved with node -e 0. Target: at most ${TARGET_MS} ms`);
    printTable(
      ['what', 'ms', 'vs node -e 0', 'target'],
      figures.map((figure) => [
        figure.name,
        figure.ms.toFixed(1),
        figure.target ? `+${(figure.ms - figures[0]!.ms).toFixed(1)}` : '-',
        figure.target ? (figure.ms <= TARGET_MS ? 'met' : 'MISSED') : '',
      ]),
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
