// The README's quick start, run as it is written: the demo (`npx -y pnpm@10 demo`, weir run on the
// example workspace with the mock model) as a child process, and the interactive line in tmux.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repo } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';

const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const DEMO = 'npx -y pnpm@10 install && npx -y pnpm@10 demo';
const INTERACTIVE = 'npx -y pnpm@10 weir --workspace examples/cli/workspace';

function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OPENAI_') && !name.startsWith('ANTHROPIC_') && !name.startsWith('npm_') && name !== 'WEIR_HOME') env[name] = value;
  env.NO_COLOR = '1';
  return env;
}

let home: string | undefined;
let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

describe("the README's quick start", () => {
  it('the demo command runs weir run on the example workspace with the mock model, as the README shows', async () => {
    expect(readme).toContain(DEMO);
    home = mkdtempSync(join(tmpdir(), 'weir-quick-start-'));
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile('npx', ['-y', 'pnpm@10', 'demo'], { cwd: repo, env: { ...userEnv(), WEIR_HOME: home }, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
      ),
    );
    expect(result.code).toBe(0);
    // The README's transcript, line by line, with the session id and the duration as they vary.
    const block = /The demo is the weir CLI[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const shown = block.trimEnd().split('\n');
    const got = `${result.stderr}${result.stdout}`.split('\n').filter((line) => line !== '' && !line.startsWith('> '));
    const pattern = (line: string) => new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '\\S+').replace(/\\\(\d+ ms\\\)/g, '\\(\\d+ ms\\)')}$`);
    expect(shown.length).toBeGreaterThan(3);
    for (const line of shown) expect(got, line).toContainEqual(expect.stringMatching(pattern(line)));
  }, 150_000);

  it.skipIf(tmuxMissing !== undefined)('the interactive line starts a session on the example workspace', async () => {
    expect(readme).toContain(INTERACTIVE);
    home = mkdtempSync(join(tmpdir(), 'weir-quick-start-'));
    terminal = startTerminal([], repo, { ...userEnv(), WEIR_HOME: home }, INTERACTIVE.split(' '));
    await terminal.waitFor(/\[session\] \S+ new[\s\S]*^> /m, 90_000);
    await terminal.type('read file notes.txt');
    await terminal.waitFor(/Buy milk\. Call Ada[\s\S]*^> /m);
    await terminal.type('/exit');
    expect(await terminal.waitFor(/WEIR EXITED/)).toContain('WEIR EXITED 0');
  }, 150_000);
});
