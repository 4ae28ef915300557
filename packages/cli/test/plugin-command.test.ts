// `weir plugin add | list | remove` as a user runs them, and what a session then loads: a Claude
// Code plugin from the shared fixtures is added and listed; a weir bundle's tool answers in
// `weir run` and is gone once removed; removing a bundle and /reload leave the harness exactly as
// before (the conformance kit's snapshot).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { diffSnapshots, snapshotHarness } from '@weir/core/testing';
import { loadSafetySettings } from '@weir/safety';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { cliLogger } from '../src/cli-logger.js';
import { composeHarness } from '../src/compose-harness.js';
import { userRecords, writeBundleRecords } from '../src/bundles/bundle-records.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';

const prReview = sharedFixture('claude-ecosystem/plugins/anthropics__claude-plugins-official/plugins/pr-review-toolkit', "running a real plugin's command");
const hookify = sharedFixture('claude-ecosystem/plugins/anthropics__claude-plugins-official/plugins/hookify', 'adding a real Claude Code plugin');

let sandbox: Sandbox;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => sandbox?.remove());

const weir = (args: string[]) => runWeir(args, { cwd: sandbox.workspace, env: { ...sandbox.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' } });

/** A weir bundle with one tool, `greet`, in `<dir>/greeter`. */
function writeGreeter(dir: string): string {
  const root = join(dir, 'greeter');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'greeter', version: '0.1.0', type: 'module', weir: { tools: './tools.mjs' } }));
  writeFileSync(
    join(root, 'tools.mjs'),
    `export default () => ({ name: 'greeter', setup(ctx) { ctx.tools.register({ name: 'greet', description: 'Greets someone by name.', tier: 'read-only', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, execute: ({ name }) => 'Hello, ' + name + '!' }); } });\n`,
  );
  return root;
}

describe('weir plugin', () => {
  it.runIf(hookify)('adds a Claude Code plugin folder unchanged, lists it, refuses it twice, removes it', async () => {
    sandbox = makeSandbox();
    const added = await weir(['plugin', 'add', hookify!]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added plugin hookify (Claude Code plugin: 1 skills folder, 1 commands folder, 1 agents folder, hooks on PreToolUse, PostToolUse, Stop, UserPromptSubmit)');
    expect(JSON.parse(readFileSync(join(sandbox.home, 'plugins.json'), 'utf8'))).toEqual({ plugins: [{ name: 'hookify', source: 'folder', spec: hookify, root: hookify }] });
    const listed = await weir(['plugin', 'list']);
    expect(listed.stdout).toMatch(/^hookify {2}user {2}folder {2}\S+hookify\n {2}Claude Code plugin: /);
    const again = await weir(['plugin', 'add', hookify!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^\[error\] A plugin named "hookify" is already added .*weir plugin remove hookify\.\n$/);
    expect((await weir(['plugin', 'remove', 'hookify'])).code).toBe(0);
    expect((await weir(['plugin', 'list'])).stdout).toBe('No plugins added (weir plugin add <folder | npm package>).\n');
  }, 120_000);

  it.runIf(prReview)("a plugin's command runs: /review-pr of pr-review-toolkit in weir run, its arguments in the prompt the model gets", async () => {
    sandbox = makeSandbox();
    expect((await weir(['plugin', 'add', prReview!])).code).toBe(0);
    const before = server.requests.length;
    const result = await weir(['run', '/review-pr tests errors']);
    expect(result.stderr).not.toMatch(/\[error\]/);
    expect(result.code).toBe(0);
    const sent = JSON.stringify(server.requests.slice(before));
    expect(sent).toContain('# Comprehensive PR Review');
    expect(sent).toContain('**Review Aspects (optional):** \\"tests errors\\"');
  }, 120_000);

  it("a bundle's tool answers in weir run once added, and is gone once removed", async () => {
    sandbox = makeSandbox();
    const root = writeGreeter(join(sandbox.home, '..'));
    expect((await weir(['plugin', 'add', root])).code).toBe(0);
    const greeted = await weir(['run', 'call greet {"name":"Ada"}']);
    expect(greeted.stdout).toContain('greet said: Hello, Ada!');
    expect((await weir(['plugin', 'remove', 'greeter'])).code).toBe(0);
    const gone = await weir(['run', 'call greet {"name":"Ada"}']);
    expect(gone.stdout + gone.stderr).toMatch(/TOOL_NOT_FOUND|not found|unknown tool/i);
  }, 120_000);

  it('installs an npm package (a packed tarball) into the weir home, and uninstalls it on remove', async () => {
    sandbox = makeSandbox();
    const source = writeGreeter(join(sandbox.home, '..', 'src'));
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(sandbox.home, '..')], { cwd: source, encoding: 'utf8' }).trim();
    const tarball = join(sandbox.home, '..', packed);
    const added = await weir(['plugin', 'add', tarball]);
    expect(added.stderr).toBe('');
    const installed = join(sandbox.home, 'plugins', 'node_modules', 'greeter');
    expect(added.stdout).toContain(`Added plugin greeter (weir bundle 0.1.0: 1 tool module) from ${installed}`);
    expect((await weir(['run', 'call greet {"name":"Ada"}'])).stdout).toContain('greet said: Hello, Ada!');
    expect((await weir(['plugin', 'list'])).stdout).toContain(`greeter  user  npm ${tarball}  ${installed}`);
    expect((await weir(['plugin', 'remove', 'greeter'])).code).toBe(0);
    expect(existsSync(installed)).toBe(false);
  }, 120_000);

  it("a bundle's hooks outside a tool call run too: SessionStart in its folder, UserPromptSubmit adding context", async () => {
    sandbox = makeSandbox();
    const root = join(sandbox.home, '..', 'context-bundle');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    mkdirSync(join(root, 'hooks'));
    writeFileSync(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'context-bundle', version: '0.0.1' }));
    const group = (command: string) => [{ hooks: [{ type: 'command', command }] }];
    writeFileSync(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { SessionStart: group('touch "$CLAUDE_PLUGIN_ROOT/started"'), UserPromptSubmit: group('cat > "$CLAUDE_PLUGIN_ROOT/prompt.json"; echo "The build is green since Tuesday."') } }),
    );
    expect((await weir(['plugin', 'add', root])).stdout).toContain('Added plugin context-bundle (Claude Code plugin 0.0.1: hooks on SessionStart, UserPromptSubmit)');
    const before = server.requests.length;
    const answer = await weir(['run', 'how is the build?']);
    expect(answer.code).toBe(0);
    expect(existsSync(join(root, "started"))).toBe(true);
    expect(JSON.stringify(server.requests.slice(before))).toContain('The build is green since Tuesday.');
    // The payload in Claude Code's shape, with the session weir opened.
    expect(JSON.parse(readFileSync(join(root, 'prompt.json'), 'utf8'))).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'how is the build?', session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  }, 120_000);

  it("a project's bundle waits for the project's trust", async () => {
    sandbox = makeSandbox();
    const root = writeGreeter(join(sandbox.workspace, 'tools'));
    expect((await weir(['plugin', 'add', root, '--project'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(sandbox.workspace, '.weir', 'plugins.json'), 'utf8')).plugins[0].root).toBe(join('tools', 'greeter'));
    expect((await weir(['plugin', 'list'])).stdout).toContain(`greeter  project  folder  ${root} (not run until you trust this folder: weir trust)`);
    const untrusted = await weir(['run', 'call greet {"name":"Ada"}']);
    expect(untrusted.stdout).not.toContain('Hello, Ada!');
    expect(untrusted.stdout + untrusted.stderr).toContain('[plugin] greeter');
    expect((await weir(['trust'])).code).toBe(0);
    expect((await weir(['plugin', 'list'])).stdout).not.toContain('not run until');
    expect((await weir(['run', 'call greet {"name":"Ada"}'])).stdout).toContain('greet said: Hello, Ada!');
  }, 120_000);

  it('says what is wrong in one line: an unknown action, a folder that is no bundle, a name not added', async () => {
    sandbox = makeSandbox();
    const unknown = await weir(['plugin', 'install', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('[error] Unknown plugin command "install" (expected add, list or remove).');
    const notBundle = await weir(['plugin', 'add', sandbox.workspace]);
    expect(notBundle.code).toBe(1);
    expect(notBundle.stderr).toMatch(/^\[error\] \S+ is not a plugin bundle: it has neither a package\.json "weir" field nor \.claude-plugin\/plugin\.json\.\n$/);
    const missing = await weir(['plugin', 'remove', 'nothing']);
    expect(missing.stderr).toBe('[error] No user\'s plugin is named "nothing" (none is added; a project\'s takes --project).\n');
  }, 120_000);
});

describe('removing a bundle and /reload', () => {
  it('leave the harness exactly as it was before the bundle was added', async () => {
    sandbox = makeSandbox();
    const root = writeGreeter(join(sandbox.home, '..'));
    const settings = await loadSafetySettings({ user: join(sandbox.home, 'settings.json'), project: sandbox.workspace });
    const composed = await composeHarness({
      workspace: sandbox.workspace,
      config: undefined,
      settings,
      mode: undefined,
      approver: () => ({ decision: 'deny' }),
      logger: cliLogger(() => undefined, false),
      bundles: { env: sandbox.env, projectTrusted: false },
    });
    const lines: string[] = [];
    const say = (line: string) => void lines.push(line);
    try {
      const before = snapshotHarness(composed.harness);
      await writeBundleRecords(userRecords(sandbox.env), [{ name: 'greeter', source: 'folder', spec: root, root }]);
      await composed.reload(undefined, say);
      expect(composed.harness.tools.names()).toContain('greet');
      // /reload imports the tool module again: the code now on disk answers.
      writeFileSync(join(root, 'tools.mjs'), readFileSync(join(root, 'tools.mjs'), 'utf8').replace("'Hello, '", "'Hi again, '"));
      await composed.reload(undefined, say);
      expect(await composed.harness.executeToolCall({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ ok: true, content: 'Hi again, Ada!' });
      expect(diffSnapshots(before, snapshotHarness(composed.harness))).toEqual([expect.stringMatching(/^tools: /), expect.stringMatching(/^plugins: /)]);
      await writeBundleRecords(userRecords(sandbox.env), []);
      await composed.reload(undefined, say);
      expect(diffSnapshots(before, snapshotHarness(composed.harness))).toEqual([]);
      expect(lines).toContain('[reload] unloaded plugin bundle greeter (tools gone: greet)');
    } finally {
      await composed.close();
    }
  });
});
