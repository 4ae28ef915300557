// The shell tool in weir, as a user meets it: on by default where bubblewrap works (a command runs in
// the real sandbox, as the sandbox user, and its change is checkpointed), one line with the cause and
// the fix where it does not (bwrap not on PATH) while the session still answers, and off without a
// word with --no-shell or "shell": false.
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';

if (tmuxMissing !== undefined) console.warn(`[cli] the shell terminal test is skipped: ${tmuxMissing}`);

let sandbox: Sandbox | undefined;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  sandbox?.remove();
  sandbox = undefined;
});

const NOBODY = 65534;
const command = (text: string) => `call run_command ${JSON.stringify({ command: text })}`;

/** A test workspace the sandbox user can reach: as root, the folders on the way searchable and the workspace nobody's. */
function reachableSandbox(): Sandbox {
  const made = makeSandbox();
  if (process.getuid?.() === 0) {
    chmodSync(dirname(made.workspace), 0o755);
    chownTree(made.workspace);
  }
  // The user's rule lets the commands of these tests run headless (run_command asks otherwise).
  mkdirSync(made.home, { recursive: true });
  writeFileSync(join(made.home, 'settings.json'), JSON.stringify({ safety: { rules: [{ allow: { tool: 'run_command', command: ['touch *', 'id -u'] } }] } }));
  return made;
}

function chownTree(path: string): void {
  chownSync(path, NOBODY, NOBODY);
  for (const name of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, name.name);
    if (name.isDirectory()) chownTree(child);
    else chownSync(child, NOBODY, NOBODY);
  }
}

const run = (args: readonly string[], made: Sandbox, env: NodeJS.ProcessEnv = {}) =>
  runWeir(args, { cwd: made.workspace, env: { ...made.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in', ...env } });

describe('the shell tool in weir', () => {
  it('is on by default: run_command runs in the sandbox as the unprivileged user, and a rewind takes its change back', async () => {
    const made = (sandbox = reachableSandbox());
    const who = await run(['run', command('id -u')], made);
    expect(who.stderr).not.toContain('[shell]');
    expect(who.stderr).toMatch(/^\[tool\] run_command \{"command":"id -u"\} -> ok/m);
    // Never root: as root the commands run as the workspace's owner (nobody here), else as weir's own user.
    const expected = process.getuid?.() === 0 ? NOBODY : process.getuid?.();
    expect(who.stdout).toMatch(new RegExp(`^run_command said: (?:.*\\n)*${expected}\\n`));
    expect(who.code).toBe(0);

    const touched = await run(['run', command('touch made-by-a-command.txt')], made);
    expect(touched.stderr).toMatch(/^\[tool\] run_command \{"command":"touch made-by-a-command\.txt"\} -> ok/m);
    const file = join(made.workspace, 'made-by-a-command.txt');
    expect(statSync(file).uid).toBe(process.getuid?.() === 0 ? NOBODY : process.getuid?.());
    const id = /\[session\] (\S+) saved/.exec(touched.stderr)?.[1];
    const rewound = await run(['rewind', id!, '--turn', '0', '--files'], made);
    // Only the command's file: weir's own writes in .weir during the command are never the command's.
    expect(rewound.stdout).toMatch(/: 1 file set back.*\n {2}made-by-a-command\.txt\n/);
    expect(existsSync(file)).toBe(false);
  }, 120_000);

  it('without bwrap on PATH: the first lines say the shell is off, why and the fix, and the session still answers', async () => {
    const made = (sandbox = reachableSandbox());
    // Only the PATH lacks bubblewrap (node is started by its full path): the plugin's own probe decides.
    const result = await run(['run', 'hello there'], made, { PATH: '/nonexistent-bin' });
    const status = result.stderr.trimEnd().split('\n');
    expect(status[0]).toMatch(/^\[model\] /);
    expect(status[1]).toBe(
      '[shell] off: bubblewrap is not installed (no bwrap on PATH); install it (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap); weir goes on without run_command (--no-shell, or "shell": false in weir.config.json, turns it off without this line)',
    );
    expect(result.stdout).toBe('You said: hello there\n');
    expect(result.code).toBe(0);

    const asked = await run(['run', command('id -u')], made, { PATH: '/nonexistent-bin' });
    expect(asked.stdout).toMatch(/^run_command said: Error \[TOOL_NOT_FOUND\]/);
  }, 120_000);

  it('--no-shell and "shell": false turn it off without a line', async () => {
    const made = (sandbox = reachableSandbox());
    const flagged = await run(['run', '--no-shell', command('id -u')], made, { PATH: '/nonexistent-bin' });
    expect(flagged.stderr).not.toContain('[shell]');
    expect(flagged.stdout).toMatch(/^run_command said: Error \[TOOL_NOT_FOUND\]/);

    const config = join(made.workspace, '..', 'no-shell.json');
    writeFileSync(config, JSON.stringify({ shell: false }));
    const configured = await run(['run', '--config', config, command('id -u')], made, { PATH: '/nonexistent-bin' });
    expect(configured.stderr).not.toContain('[shell]');
    expect(configured.stdout).toMatch(/^run_command said: Error \[TOOL_NOT_FOUND\]/);

    writeFileSync(config, JSON.stringify({ shell: 'no' }));
    const bad = await run(['run', '--config', config, 'hello'], made);
    expect(bad.stderr).toContain(`The config file ${config} is not valid: "shell" must be true, false (no run_command) or { "network": { "allow": [host names] } }.`);
    expect(bad.code).not.toBe(0);
  }, 120_000);

  it('"shell": { "network": { "allow" } } and the settings\' network.allow let commands reach those names through the proxy, and no other', async () => {
    const made = (sandbox = reachableSandbox());
    writeFileSync(join(made.home, 'settings.json'), JSON.stringify({ network: { allow: ['from-settings.invalid'] }, safety: { rules: [{ allow: { tool: 'run_command', command: ['curl *'] } }] } }));
    const config = join(made.workspace, '..', 'network.json');
    writeFileSync(config, JSON.stringify({ shell: { network: { allow: ['from-config.invalid'] } } }));
    const curled = await run(['run', '--config', config, command('curl -sS http://from-config.invalid/; curl -sS http://from-settings.invalid/; curl -sS http://elsewhere.invalid/')], made);
    // Allowed by name, each is resolved by the proxy (and .invalid never resolves); any other name is refused unresolved.
    expect(curled.stdout).toContain('network access to from-config.invalid:80 refused: it does not resolve');
    expect(curled.stdout).toContain('network access to from-settings.invalid:80 refused: it does not resolve');
    expect(curled.stdout).toContain('network access to elsewhere.invalid:80 refused: not in network.allow');
    writeFileSync(config, JSON.stringify({ shell: { network: { allow: 'x' } } }));
    const bad = await run(['run', '--config', config, 'hello'], made);
    expect(bad.stderr).toContain(`The config file ${config} is not valid: "shell.network.allow" must be an array of host names such as "registry.npmjs.org" or "*.pypi.org".`);
  }, 120_000);
});

describe.skipIf(tmuxMissing !== undefined)('the shell tool in the terminal', () => {
  it('runs a command in the sandbox from the interactive session, and /rewind takes its change back', async () => {
    const made = (sandbox = reachableSandbox());
    const env = { ...made.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' };
    const t = (terminal = startTerminal([], made.workspace, env));
    const started = await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    expect(started).not.toContain('[shell]');
    await t.type(command('touch from-the-terminal.txt'));
    await t.waitFor(/run_command said: [\s\S]*^> /m);
    expect(existsSync(join(made.workspace, 'from-the-terminal.txt'))).toBe(true);
    await t.type('/rewind');
    const listed = await t.waitFor(/Rewind to the end of which turn\?/);
    expect(listed).toMatch(/^ {2}1 {2}\d\d:\d\d:\d\d {2}call run_command .*\(changed from-the-terminal\.txt\)$/m);
    await t.type('0');
    await t.waitFor(/\[rewind\] back to the end of turn 0: 1 file set back.*\n {2}from-the-terminal\.txt\n> /);
    expect(existsSync(join(made.workspace, 'from-the-terminal.txt'))).toBe(false);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
  }, 120_000);
});
