// step3-safety run as a user would: headless (no terminal: every write that needs approval is
// denied), and in a real terminal (tmux) where a person allows one write and denies the next.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const tsxCli = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const script = 'examples/first-agent/step3-safety.ts';

/** The environment of a run with the mock model (OPENAI_* unset: the transcript is deterministic). */
function mockEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENAI_BASE_URL;
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_MODEL;
  return env;
}

const tmuxVersion = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
const tmuxMissing = tmuxVersion.error !== undefined || tmuxVersion.status !== 0;
if (tmuxMissing) {
  console.warn(`[examples] step3-safety terminal test skipped: tmux is not available (${tmuxVersion.error?.message ?? `tmux -V exited ${String(tmuxVersion.status)}`}). Install it with: apt-get install -y tmux`);
}

const RULE_DENIAL = 'Policy "safety" denied this write_file call: the safety rule { deny: "write_file", path: ".env" } forbids it (path ".env").';

describe('examples/first-agent step3-safety', () => {
  it('headless (no terminal): never prompts, denies the writes that need approval, and the loop goes on', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [tsxCli, '--conditions=@weir/source', script], { cwd: repo, env: mockEnv() });
    const noTerminal = 'The approval prompt failed (there is no terminal to ask: stdin is not a TTY), so the call was denied.';
    expect(stdout).not.toContain('Allow once');
    expect(stdout.trimEnd().split('\n')).toEqual([
      '[user] write hello.txt: Hello from weir!',
      `[tool:write_file] -> DENIED ${noTerminal}`,
      `[assistant] I could not write that file. Error [DENIED]: ${noTerminal}`,
      '[user] write plan.md: - ship step 3',
      `[tool:write_file] -> DENIED ${noTerminal}`,
      `[assistant] I could not write that file. Error [DENIED]: ${noTerminal}`,
      '[user] write .env: TOKEN=hunter2',
      `[tool:write_file] -> DENIED ${RULE_DENIAL}`,
      `[assistant] I could not write that file. Error [DENIED]: ${RULE_DENIAL}`,
      '[workspace] hello.txt: (not written)',
      '[workspace] plan.md: (not written)',
      '[workspace] .env: (not written)',
    ]);
  }, 60_000);

  describe('in a real terminal (tmux)', () => {
    // Its own tmux server and socket: nothing else's tmux is touched, and no server-exit race.
    const socketDir = tmuxMissing ? '' : mkdtempSync(join(tmpdir(), 'weir-step3-tmux-'));
    const socket = join(socketDir, 'socket');
    const session = `weir-step3-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-200');

    async function waitFor(pattern: RegExp, ms = 30_000): Promise<string> {
      const deadline = Date.now() + ms;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the terminal shows:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    async function press(...keys: string[]): Promise<void> {
      for (const key of keys) {
        tmux('send-keys', '-t', session, key);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }

    afterEach(() => {
      spawnSync('tmux', ['-S', socket, 'kill-session', '-t', session]);
      spawnSync('tmux', ['-S', socket, 'kill-server']);
    });
    afterAll(() => {
      if (socketDir !== '') rmSync(socketDir, { recursive: true, force: true });
    });

    it.skipIf(tmuxMissing)('the prompt appears; allow writes the file, deny with a message tells the model', async () => {
      // The tmux server keeps the environment it started with: unset OPENAI_* in the pane for the mock model.
      const unset = 'unset OPENAI_BASE_URL OPENAI_API_KEY OPENAI_MODEL';
      tmux('-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', '120', '-y', '50', `${unset}; cd '${repo}' && '${tsx}' --conditions=@weir/source ${script}; echo "EXAMPLE EXITED $?"; sleep 120`);

      const first = await waitFor(/Deny, with a message for the model/);
      expect(first).toContain('write_file (write tool) wants to run with:');
      expect(first).toContain('path: "hello.txt"');
      // The cursor starts on Deny: two up is "Allow once".
      await press('Up', 'Up', 'Enter');

      await waitFor(/path: "plan\.md"[\s\S]*Deny, with a message for the model/);
      await press('Down', 'Enter');
      await waitFor(/What should the model be told\?/);
      tmux('send-keys', '-t', session, '-l', 'Plans go in docs/plan.md');
      await waitFor(/Plans go in docs\/plan\.md/);
      await press('Enter');

      const text = await waitFor(/EXAMPLE EXITED/);
      const transcript = text.split('\n').filter((line) => /^\[(user|tool:|assistant|workspace)/.test(line));
      expect(transcript).toEqual([
        '[user] write hello.txt: Hello from weir!',
        '[tool:write_file] -> ok',
        '[assistant] Done. Created hello.txt (17 bytes).',
        '[user] write plan.md: - ship step 3',
        '[tool:write_file] -> DENIED The user denied this write_file call. The user said: Plans go in docs/plan.md',
        '[assistant] I could not write that file. Error [DENIED]: The user denied this write_file call. The user said: Plans go in docs/plan.md',
        '[user] write .env: TOKEN=hunter2',
        `[tool:write_file] -> DENIED ${RULE_DENIAL}`,
        `[assistant] I could not write that file. Error [DENIED]: ${RULE_DENIAL}`,
        '[workspace] hello.txt: Hello from weir!',
        '[workspace] plan.md: (not written)',
        '[workspace] .env: (not written)',
      ]);
      expect(text).toContain('Allowed once.');
      expect(text).toContain('EXAMPLE EXITED 0');
    }, 90_000);

    it.skipIf(tmuxMissing)('one Ctrl-C at the prompt denies the call and ends the program with status 130', async () => {
      const unset = 'unset OPENAI_BASE_URL OPENAI_API_KEY OPENAI_MODEL';
      tmux('-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', '120', '-y', '50', `${unset}; cd '${repo}' && '${tsx}' --conditions=@weir/source ${script}; echo "EXAMPLE EXITED $?"; sleep 120`);
      await waitFor(/Deny, with a message for the model/);
      await press('C-c');
      const text = await waitFor(/EXAMPLE EXITED/);
      expect(text).toContain('Denied: interrupted (Ctrl-C).');
      expect(text).toContain('EXAMPLE EXITED 130');
      // The turn stopped there: no second prompt, no later line.
      expect(text).not.toContain('plan.md');
    }, 90_000);

    it.skipIf(tmuxMissing)('with standard output piped, the prompt is drawn on the terminal (standard error)', async () => {
      const out = join(socketDir, 'stdout.txt');
      const unset = 'unset OPENAI_BASE_URL OPENAI_API_KEY OPENAI_MODEL';
      tmux('-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', '120', '-y', '50', `${unset}; cd '${repo}' && '${tsx}' --conditions=@weir/source ${script} 'write hello.txt: hi' > '${out}'; echo "EXAMPLE EXITED $?"; sleep 120`);
      await waitFor(/Deny, with a message for the model/);
      // The cursor starts on Deny: up twice to "Allow once".
      await press('Up', 'Up', 'Enter');
      const text = await waitFor(/EXAMPLE EXITED/);
      expect(text).toContain('EXAMPLE EXITED 0');
      const piped = readFileSync(out, 'utf8');
      expect(piped).not.toContain('Allow once');
      expect(piped.trimEnd().split('\n')).toEqual(expect.arrayContaining(['[tool:write_file] -> ok', '[workspace] hello.txt: hi']));
    }, 90_000);
  });
});
