// The approval prompt driven in a real terminal: tmux runs a script that executes one write_file
// call through safety + terminalApprover; the test reads the screen and types like a person.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const tsxCli = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/approve-one-call.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));

const tmuxVersion = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
const tmuxMissing = tmuxVersion.error !== undefined || tmuxVersion.status !== 0;
if (tmuxMissing) {
  // Said out loud, never skipped silently: .ci/run installs tmux with apt when it can.
  console.warn(`[safety] terminal prompt tests skipped: tmux is not available (${tmuxVersion.error?.message ?? `tmux -V exited ${String(tmuxVersion.status)}`}). Install it with: apt-get install -y tmux`);
}

/**
 * One tmux server per test, on its own socket in a private directory: a server exiting after its
 * last session cannot race the next test's new session, and nothing touches the user's tmux.
 */
interface Terminal {
  readonly socket: string;
  readonly session: string;
}

const socketDir = tmuxMissing ? '' : mkdtempSync(join(tmpdir(), 'weir-safety-tmux-'));
const open: Terminal[] = [];
let counter = 0;

afterEach(() => {
  for (const terminal of open.splice(0)) {
    spawnSync('tmux', ['-S', terminal.socket, 'kill-session', '-t', terminal.session]);
    spawnSync('tmux', ['-S', terminal.socket, 'kill-server']);
  }
});

afterAll(() => {
  if (socketDir !== '') rmSync(socketDir, { recursive: true, force: true });
});

function tmux(terminal: Terminal, ...args: string[]): string {
  return execFileSync('tmux', ['-S', terminal.socket, ...args], { encoding: 'utf8' });
}

function startScript(): Terminal {
  counter += 1;
  const terminal = { socket: join(socketDir, `s${counter}`), session: `weir-approve-${process.pid}-${counter}` };
  open.push(terminal);
  // The pane stays after the script ends so its last lines can be read.
  const command = `cd '${packageDir}' && '${tsx}' --conditions=@weir/source '${script}'; echo "SCRIPT EXITED $?"; sleep 120`;
  tmux(terminal, '-f', '/dev/null', 'new-session', '-d', '-s', terminal.session, '-x', '120', '-y', '40', command);
  return terminal;
}

function screen(terminal: Terminal): string {
  return tmux(terminal, 'capture-pane', '-p', '-J', '-t', terminal.session);
}

/** Polls the screen until `pattern` shows, for at most `ms`. */
async function waitFor(terminal: Terminal, pattern: RegExp, ms = 20_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = screen(terminal);
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in the terminal; it shows:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function keys(terminal: Terminal, ...names: string[]): Promise<void> {
  for (const name of names) {
    tmux(terminal, 'send-keys', '-t', terminal.session, name);
    // Let the prompt redraw between keys, as a person would.
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function resultOf(text: string): { ok: boolean; code?: string; message?: string; bodyRan: boolean } {
  const line = text.split('\n').find((candidate) => candidate.startsWith('RESULT '));
  if (line === undefined) throw new Error(`no RESULT line in:\n${text}`);
  return JSON.parse(line.slice('RESULT '.length));
}

describe('terminalApprover in a real terminal (tmux)', () => {
  it.skipIf(tmuxMissing)('shows the call with the bidi override escaped; "Allow once" allows once and the tool runs', async () => {
    const terminal = startScript();
    const prompt = await waitFor(terminal, /Deny, with a message for the model/);
    expect(prompt).toContain('write_file (write tool) wants to run with:');
    expect(prompt).toContain('path: "invoice\\u202Etxt.exe"');
    expect(prompt).not.toContain('\u202E');
    await keys(terminal, 'Up', 'Up', 'Enter');
    const text = await waitFor(terminal, /SCRIPT EXITED/);
    expect(text).toContain('Allowed once.');
    expect(resultOf(text)).toEqual({ ok: true, content: 'wrote invoice\u202Etxt.exe', bodyRan: true });
    expect(text).toContain('SCRIPT EXITED 0');
  }, 40_000);

  it.skipIf(tmuxMissing)('deny with a message: the model gets DENIED carrying the message', async () => {
    const terminal = startScript();
    await waitFor(terminal, /Deny, with a message for the model/);
    await keys(terminal, 'Down', 'Enter');
    await waitFor(terminal, /What should the model be told\?/);
    tmux(terminal, 'send-keys', '-t', terminal.session, '-l', 'Write to notes.md instead');
    await waitFor(terminal, /Write to notes\.md instead/);
    await keys(terminal, 'Enter');
    const text = await waitFor(terminal, /SCRIPT EXITED/);
    expect(resultOf(text)).toEqual({
      ok: false,
      code: 'DENIED',
      message: 'The user denied this write_file call. The user said: Write to notes.md instead',
      bodyRan: false,
    });
  }, 40_000);

  it.skipIf(tmuxMissing)('an Enter typed before the prompt shows approves nothing; Enter on the prompt as drawn denies', async () => {
    const terminal = startScript();
    // The script is still starting: the key waits in the terminal's buffer.
    await keys(terminal, 'Enter');
    await waitFor(terminal, /Deny, with a message for the model/);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen(terminal)).not.toContain('RESULT');
    await keys(terminal, 'Enter');
    const text = await waitFor(terminal, /SCRIPT EXITED/);
    expect(resultOf(text)).toEqual({ ok: false, code: 'DENIED', message: 'The user denied this write_file call.', bodyRan: false });
  }, 40_000);

  it.skipIf(tmuxMissing)('Esc denies, and the tool does not run', async () => {
    const terminal = startScript();
    await waitFor(terminal, /Deny, with a message for the model/);
    await keys(terminal, 'Escape');
    const text = await waitFor(terminal, /SCRIPT EXITED/);
    expect(text).toContain('Denied.');
    expect(resultOf(text)).toEqual({ ok: false, code: 'DENIED', message: 'The user denied this write_file call.', bodyRan: false });
  }, 40_000);

  it.skipIf(tmuxMissing)('Ctrl-C denies instead of killing the process', async () => {
    const terminal = startScript();
    await waitFor(terminal, /Deny, with a message for the model/);
    await keys(terminal, 'C-c');
    const text = await waitFor(terminal, /SCRIPT EXITED/);
    expect(resultOf(text)).toMatchObject({ ok: false, code: 'DENIED', bodyRan: false });
    expect(text).toContain('SCRIPT EXITED 0');
  }, 40_000);
});

describe('terminalApprover with no terminal (a real headless process)', () => {
  it('never prompts and denies the call', () => {
    const run = spawnSync(process.execPath, [tsxCli, '--conditions=@weir/source', script], { cwd: packageDir, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('Allow once');
    expect(resultOf(run.stdout)).toEqual({
      ok: false,
      code: 'DENIED',
      message: 'The approval prompt failed (there is no terminal to ask: stdin is not a TTY), so the call was denied.',
      bodyRan: false,
    });
  }, 40_000);
});
