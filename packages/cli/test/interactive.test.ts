// `weir` in a real terminal (tmux): a turn with tools and the slash commands, approvals allowed and
// denied, the trust question, a resumed session, /reload with a plugin changed on disk, and Ctrl-C
// during a slow tool and at the prompt.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';
import { writeTestConfig, writeTestPlugin } from './support/test-plugin.js';

if (tmuxMissing !== undefined) console.warn(`[cli] the terminal tests are skipped: ${tmuxMissing}`);

let server: ModelServer;
let sandbox: Sandbox | undefined;
let terminal: Terminal | undefined;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  sandbox?.remove();
  sandbox = undefined;
});

const standIn = () => ({ OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' });
function open(args: string[] = [], env: NodeJS.ProcessEnv = {}): { terminal: Terminal; sandbox: Sandbox } {
  sandbox ??= makeSandbox();
  terminal = startTerminal(args, sandbox.workspace, { ...sandbox.env, ...env });
  return { terminal, sandbox };
}
const PROMPT = /^> $/m;

describe.skipIf(tmuxMissing !== undefined)('weir, interactive, in a real terminal', () => {
  it('shows the model, runs a turn with a tool, answers the slash commands, and /exit ends with 0', async () => {
    const { terminal: t } = open();
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    expect(t.screen().split('\n')[0]).toBe('[model] mock:rules (the mock model: no ANTHROPIC_* or OPENAI_* or GEMINI_* variable or --model is set)');
    await t.type('read file todo.md');
    const answered = await t.waitFor(/Run the benchmark\n> /);
    expect(answered).toMatch(/\[tool\] read_file \{"path":"todo\.md"\} -> ok \(\d+(?:\.\d+)? m?s\)/);
    // Markdown rendered for the terminal (src/markdown-lines.test.ts has the rules): no bold stars.
    expect(answered).not.toContain('**Write**');
    await t.type('/tools');
    await t.waitFor(/write_file\s+write\s+plugin tools-fs/);
    await t.type('/plugins');
    await t.waitFor(/safety \(built in\)/);
    await t.type('/help');
    await t.waitFor(/\/reload\s+unload the config's plugins/);
    await t.type('/usage');
    await t.waitFor(/\[usage\] 1 turn/);
    await t.type('/model');
    await t.waitFor(/\[model\] mock:rules[\s\S]*\[model\] mock:rules/);
    await t.type('/exit');
    expect(await t.waitFor(/WEIR EXITED/)).toContain('WEIR EXITED 0');
  }, 90_000);

  it('a model that cannot be reached is one [error] line and the prompt comes back; the next run finishes the open turn', async () => {
    const port = await closedPort();
    const { terminal: t } = open([], { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'local', OPENAI_MAX_RETRIES: '0' });
    await t.waitFor(PROMPT);
    await t.type('hello?');
    const failed = await t.waitFor(/\[error\] [^\n]*127\.0\.0\.1[^\n]*\n> /);
    expect(failed).not.toMatch(/\n\s+at /);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
    t.close();

    // The question was never answered: --continue asks the model again before anything else.
    const again = open(['--continue'], standIn());
    await again.terminal.waitFor(/\[session\] \S+ resumed[\s\S]*^> /m);
    await again.terminal.type('and now?');
    await again.terminal.waitFor(/finishing the turn the last run left open[\s\S]*You said: hello\?[\s\S]*You said: and now\?\n> /);
    await again.terminal.type('/exit');
    await again.terminal.waitFor(/WEIR EXITED 0/);
  }, 120_000);

  it('asks before a write: allow once writes the file, deny tells the model', async () => {
    const { terminal: t, sandbox: s } = open([], standIn());
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('call write_file {"path":"yes.txt","content":"allowed\\n"}');
    await t.waitFor(/Deny, with a message for the model/);
    // The cursor starts on Deny: two up is "Allow once".
    await t.press('Up', 'Up', 'Enter');
    await t.waitFor(/write_file said: Created yes\.txt[\s\S]*^> /m);
    expect(readFileSync(join(s.workspace, 'yes.txt'), 'utf8')).toBe('allowed\n');

    await t.type('call write_file {"path":"no.txt","content":"denied\\n"}');
    await t.waitFor(/no\.txt[\s\S]*Deny, with a message for the model/);
    await t.press('Enter');
    const denied = await t.waitFor(/\[tool\] write_file \{"path":"no\.txt".* -> DENIED [\s\S]*write_file said: [\s\S]*^> /m);
    expect(denied).toMatch(/write_file said: Error \[DENIED\]/);
    expect(existsSync(join(s.workspace, 'no.txt'))).toBe(false);
    await t.press('C-d');
    expect(await t.waitFor(/WEIR EXITED/)).toContain('WEIR EXITED 0');
  }, 90_000);

  it('a resumed session shows where it ended and goes on with it', async () => {
    const first = open([], standIn());
    await first.terminal.waitFor(PROMPT);
    await first.terminal.type('remember the word teal');
    await first.terminal.waitFor(/You said: remember the word teal\n> /);
    await first.terminal.type('/exit');
    const id = /\[session\] (\S+) saved/.exec(await first.terminal.waitFor(/WEIR EXITED 0/))?.[1];
    expect(id).toBeDefined();
    first.terminal.close();

    const { terminal: t } = open(['--continue'], standIn());
    const resumed = await t.waitFor(/\[session\] \S+ resumed[\s\S]*^> /m);
    expect(resumed).toContain(`[session] ${id} resumed`);
    expect(resumed).toContain('  > remember the word teal');
    await t.type('and now?');
    await t.waitFor(/You said: and now\?\n> /);
    expect(server.requests.at(-1)!.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['remember the word teal', 'and now?']);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
    const listed = await runWeir(['sessions'], { cwd: sandbox!.workspace, env: sandbox!.env });
    expect(listed.stdout.split('\n')[0]).toMatch(new RegExp(`^${id}  \\S+  5 messages`));
  }, 120_000);

  it('asks to trust a folder with a config, then /reload runs the plugin code changed on disk, in each of its files', async () => {
    sandbox = makeSandbox();
    writeTestPlugin(sandbox.workspace, 'Hello', 'v1');
    writeTestConfig(sandbox.workspace);
    const { terminal: t } = open([], standIn());
    await t.waitFor(/Trust this folder\?/);
    await t.type('y');
    await t.waitFor(/\[trust\] \S+ is trusted[\s\S]*^> /m);
    await t.type('call greet {}');
    await t.waitFor(/greet said: Hello \(v1\)\n> /);

    // Both files change: the entry (its version) and the module it imports (the greeting).
    writeTestPlugin(sandbox.workspace, 'Bonjour', 'v2');
    await t.type('/reload');
    const reloaded = await t.waitFor(/\[reload\] done: \d+ tools\n> /);
    expect(reloaded).toMatch(/\[reload\] unloaded plugin test-plugin \(weir-plugin-test\) \(tools gone: greet, slow_tool\)\n\[reload\] loaded plugin test-plugin \(weir-plugin-test\): greet, slow_tool/);
    await t.type('call greet {}');
    await t.waitFor(/greet said: Bonjour \(v2\)\n> /);

    // A plugin that breaks on disk is reported by /reload; the session goes on.
    writeTestPlugin(sandbox.workspace, 'x', 'v3');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(sandbox.workspace, 'node_modules/weir-plugin-test/greeting.mjs'), 'export const GREETING = ;\n');
    await t.type('/reload');
    await t.waitFor(/\[reload\] plugin "weir-plugin-test" did not load: [\s\S]*\[reload\] done: 6 tools\n> /);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
  }, 120_000);

  it("the project config's \"model\" is chosen again once the folder is trusted at the question, and /model names it", async () => {
    sandbox = makeSandbox();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(sandbox.workspace, 'weir.config.json'), JSON.stringify({ model: 'mock:rules' }));
    const { terminal: t } = open([], standIn());
    await t.waitFor(/Trust this folder\?/);
    // Before the answer, the environment's model: the project's config does not count yet.
    expect(t.screen().split('\n')[0]).toBe(`[model] openai:stand-in at ${server.baseURL} (no OPENAI_API_KEY: no key sent)`);
    await t.type('y');
    await t.waitFor(/\[trust\] \S+ is trusted[\s\S]*\[model\] mock:rules \(the mock model\) \(from weir\.config\.json\)[\s\S]*^> /m);
    await t.type('read file notes.txt');
    await t.waitFor(/Buy milk\.[^\n]*\n> /);
    await t.type('/model');
    // And when the conversation compacts on its own: the mock states no context window, so it does not.
    await t.waitFor(/\n\[model\] mock:rules \(the mock model\) \(from weir\.config\.json\)\n\[model\] automatic compaction is off: mock:rules does not say its context window[^\n]*\n> /);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
  }, 120_000);

  it('Ctrl-C during a slow tool cancels the turn (the tool too) and the session goes on; Ctrl-C at the prompt exits with 130', async () => {
    sandbox = makeSandbox();
    writeTestPlugin(sandbox.workspace, 'Hello');
    writeTestConfig(sandbox.workspace);
    const { terminal: t } = open(['--config', join(sandbox.workspace, 'weir.config.json')], standIn());
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('call slow_tool {}');
    await t.waitFor(/↳ \d+\/1000 step \d+/);
    await t.press('C-c');
    const cancelled = await t.waitFor(/\[cancelled\]\n> /);
    expect(cancelled).toMatch(/\[tool\] slow_tool \{\} -> ABORTED .*\(\d/);
    await t.type('still here?');
    await t.waitFor(/You said: still here\?\n> /);
    await t.press('C-c');
    expect(await t.waitFor(/WEIR EXITED/)).toContain('WEIR EXITED 130');
  }, 90_000);

  it('Ctrl-C at the approval prompt denies and cancels the turn; two Ctrl-C in a row during a turn exit with 130', async () => {
    sandbox = makeSandbox();
    writeTestPlugin(sandbox.workspace, 'Hello');
    writeTestConfig(sandbox.workspace);
    const { terminal: t } = open(['--config', join(sandbox.workspace, 'weir.config.json')], standIn());
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('call write_file {"path":"x.txt","content":"x"}');
    await t.waitFor(/Deny, with a message for the model/);
    // Ctrl-C at the approval prompt denies and cancels the turn; the session goes on.
    await t.press('C-c');
    await t.waitFor(/\[cancelled\]\n> /);
    expect(existsSync(join(sandbox.workspace, 'x.txt'))).toBe(false);
    await t.type('call slow_tool {}');
    await t.waitFor(/↳ \d+\/1000/);
    // Two Ctrl-C 200 ms apart (sent at once, the terminal merges them into one signal): the second
    // arrives while the turn is cancelling or at the prompt, and either way weir exits.
    await t.press('C-c', 'C-c');
    expect(await t.waitFor(/WEIR EXITED/)).toContain('WEIR EXITED 130');
  }, 90_000);
});
