// `weir run` as a child process: a turn with tools, --json, approvals without a terminal, sessions,
// configs (broken, untrusted, trusted) and models (incomplete, unreachable).
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, weirCommand, type Sandbox } from './support/run-weir.js';
import { writeEchoServer } from './support/echo-mcp-server.js';
import { writeTestConfig, writeTestPlugin } from './support/test-plugin.js';

let sandbox: Sandbox;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => sandbox?.remove());

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runWeir(args, { cwd: sandbox.workspace, env: { ...sandbox.env, ...env } });
const standIn = () => ({ OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' });
const lines = (text: string) => text.trimEnd().split('\n');

describe('weir run', () => {
  it('runs a turn with a tool on the mock model: the answer on stdout, the model and one line per tool call on stderr', async () => {
    sandbox = makeSandbox();
    const result = await run(['run', 'read file notes.txt']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Tool read_file returned:      1\tBuy milk. Call Ada about the weir plugin. Ship the agent loop.\n');
    const status = lines(result.stderr);
    expect(status[0]).toBe('[model] mock:rules (the mock model: no ANTHROPIC_* or OPENAI_* or GEMINI_* variable or --model is set)');
    expect(status).toContainEqual(expect.stringMatching(/^\[tool\] read_file \{"path":"notes\.txt"\} -> ok \(\d+(?:\.\d+)? m?s\)$/));
    expect(status.at(-1)).toMatch(/^\[session\] \S+ saved: weir run --resume \S+ "<prompt>" goes on with it$/);
  }, 120_000);

  it('--json prints one JSON event per line', async () => {
    sandbox = makeSandbox();
    const result = await run(['run', '--json', 'list dir .']);
    expect(result.code).toBe(0);
    const events = lines(result.stdout).map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['model', 'session', 'turn-start', 'model-call-start', 'tool-start', 'tool-result', 'turn-end']));
    expect(events[0]).toMatchObject({ type: 'model', id: 'mock:rules' });
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', result: { stopReason: 'stop' } });
  }, 120_000);

  it('denies a write that would ask (no terminal, no rule), and runs it once a user rule allows it', async () => {
    sandbox = makeSandbox();
    const write = 'call write_file {"path":"out.txt","content":"hi\\n"}';
    const denied = await run(['run', write], standIn());
    expect(denied.code).toBe(0);
    expect(denied.stderr).toMatch(/\[tool\] write_file \{"path":"out\.txt","content":"hi\\n"\} -> DENIED .*weir run is headless, so there is nobody to ask/);
    expect(denied.stdout).toMatch(/^write_file said: Error \[DENIED\]/);
    expect(existsSync(join(sandbox.workspace, 'out.txt'))).toBe(false);

    mkdirSync(sandbox.home, { recursive: true });
    writeFileSync(join(sandbox.home, 'settings.json'), JSON.stringify({ safety: { rules: [{ allow: 'write_file', path: 'out.txt' }] } }));
    const allowed = await run(['run', write], standIn());
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(/\[tool\] write_file .* -> ok/);
    expect(readFileSync(join(sandbox.workspace, 'out.txt'), 'utf8')).toBe('hi\n');
  }, 120_000);

  it('every run is a session under .weir/sessions: --continue goes on with the last, --resume with a given one, weir sessions lists them', async () => {
    sandbox = makeSandbox();
    const first = await run(['run', 'first question'], standIn());
    expect(first.code).toBe(0);
    const id = /\[session\] (\S+) new/.exec(first.stderr)?.[1];
    expect(id).toBeDefined();
    expect(existsSync(join(sandbox.workspace, '.weir', 'sessions', `${id}.jsonl`))).toBe(true);

    const second = await run(['run', '--continue', 'second question'], standIn());
    expect(second.stderr).toContain(`[session] ${id} resumed`);
    const seen = server.requests.at(-1)!.messages.filter((message) => message.role === 'user').map((message) => message.content);
    expect(seen).toEqual(['first question', 'second question']);

    const other = await run(['run', 'another conversation'], standIn());
    const otherId = /\[session\] (\S+) new/.exec(other.stderr)?.[1];
    expect(otherId).not.toBe(id);
    await run(['run', '--resume', id!, 'third question'], standIn());
    expect(server.requests.at(-1)!.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['first question', 'second question', 'third question']);

    const listed = await run(['sessions']);
    expect(listed.code).toBe(0);
    const rows = lines(listed.stdout);
    expect(rows[0]).toMatch(new RegExp(`^${id}  \\S+  7 messages  first question$`));
    expect(rows[1]).toMatch(new RegExp(`^${otherId}  \\S+  3 messages  another conversation$`));

    // An image no session names, written two hours ago: what weir sessions gc removes.
    const blobs = join(sandbox.workspace, '.weir', 'sessions', 'blobs');
    mkdirSync(blobs, { recursive: true });
    const orphan = join(blobs, 'a'.repeat(64));
    writeFileSync(orphan, 'old image bytes');
    const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(orphan, past, past);
    const gc = await run(['sessions', 'gc']);
    expect(gc.code).toBe(0);
    expect(gc.stdout).toMatch(/^Removed 1 image no session uses from .*sessions; kept 0 images\.\n$/);
    expect(readdirSync(blobs)).toEqual([]);
    expect((await run(['sessions', 'gcc'])).code).toBe(2);

    const missing = await run(['run', '--resume', 'no-such-session', 'hello']);
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr).at(-1)).toMatch(/^\[error\] .*no-such-session/);
  }, 120_000);
});

describe('weir run: configs and trust', () => {
  it('a broken config is one line naming the file and the key, exit status 1', async () => {
    sandbox = makeSandbox();
    const bad = join(sandbox.workspace, 'bad.json');
    writeFileSync(bad, '{ "plugins": [');
    const notJson = await run(['run', '--config', bad, 'hello']);
    expect(notJson.code).toBe(1);
    expect(lines(notJson.stderr).at(-1)).toMatch(new RegExp(`^\\[error\\] The config file ${bad.replace(/[/.]/g, '\\$&')} is not JSON: `));
    expect(notJson.stderr).not.toMatch(/\n\s+at /);

    writeFileSync(bad, JSON.stringify({ plugin: ['x'] }));
    const unknownKey = await run(['run', '--config', bad, 'hello']);
    expect(unknownKey.code).toBe(1);
    expect(lines(unknownKey.stderr).at(-1)).toBe(`[error] The config file ${bad} is not valid: "plugin" is not a key weir knows (expected plugins, mcpServers, compat, shell, model, compact).`);

    writeFileSync(bad, JSON.stringify({ mcpServers: { fs: { command: 'x', autoApprove: ['y'] } } }));
    const server = await run(['run', '--config', bad, 'hello']);
    expect(lines(server.stderr).at(-1)).toBe(`[error] The config file ${bad} is not valid: mcpServers.fs: unknown key(s) "autoApprove".`);

    writeFileSync(bad, JSON.stringify({ plugins: ['weir-plugin-that-is-not-installed'] }));
    const missing = await run(['run', '--config', bad, 'hello']);
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr).at(-1)).toMatch(new RegExp(`^\\[error\\] The config file ${bad.replace(/[/.]/g, '\\$&')}: plugins\\[0\\] "weir-plugin-that-is-not-installed" did not load: Cannot find the plugin package`));
  }, 120_000);

  it("a project's config is not used until the folder is trusted (weir trust), then its plugins load", async () => {
    sandbox = makeSandbox();
    writeTestPlugin(sandbox.workspace, 'Hello from the plugin');
    writeTestConfig(sandbox.workspace);
    const untrusted = await run(['run', 'call greet {}'], standIn());
    expect(untrusted.stderr).toContain(`[config] ${join(sandbox.workspace, 'weir.config.json')} is not used: this folder is not trusted.`);
    expect(untrusted.stderr).toMatch(/\[tool\] greet \{\} -> TOOL_NOT_FOUND/);

    const trust = await run(['trust']);
    expect(trust.code).toBe(0);
    expect(JSON.parse(readFileSync(join(sandbox.home, 'settings.json'), 'utf8'))).toEqual({ trustedFolders: [sandbox.workspace] });
    const trusted = await run(['run', 'call greet {}'], standIn());
    expect(trusted.stderr).not.toContain('[config]');
    expect(trusted.stdout).toBe('greet said: Hello from the plugin (v1)\n');
  }, 120_000);
});

describe('weir run: progress and Ctrl-C', () => {
  it('shows a running tool\'s progress under it, and SIGINT cancels the turn, the tool included: exit status 130', async () => {
    sandbox = makeSandbox();
    writeTestPlugin(sandbox.workspace, 'Hello');
    const config = writeTestConfig(sandbox.workspace);
    const [node, ...args] = weirCommand;
    const child = spawn(node!, [...args, 'run', '--config', config, 'call slow_tool {}'], { cwd: sandbox.workspace, env: { ...sandbox.env, ...standIn() } });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const sawProgress = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/↳ 2\/1000 step 2 \(slow_tool\)/.test(stderr)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await sawProgress;
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(limit);
    expect(code).toBe(130);
    expect(stderr).toMatch(/ {2}↳ 1\/1000 step 1 \(slow_tool\)\n {2}↳ 2\/1000 step 2 \(slow_tool\)/);
    expect(stderr).toMatch(/\[tool\] slow_tool \{\} -> ABORTED .*\(\d/);
    expect(stdout).toBe('');
  }, 120_000);
});

describe('weir run: MCP servers from the config', () => {
  it("loads mcpServers through @weir/mcp: a mapped tool runs, an unmapped one is dangerous and denied headless, and no server process is left", async () => {
    sandbox = makeSandbox();
    const script = writeEchoServer(sandbox.workspace);
    const config = join(sandbox.workspace, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [script], tiers: { echo: 'read-only' } } } }));
    const echoed = await run(['run', '--config', config, 'call echo__echo {"text":"over MCP"}'], standIn());
    expect(echoed.code).toBe(0);
    expect(echoed.stdout).toBe('echo__echo said: over MCP\n');
    expect(echoed.stderr).toMatch(/\[tool\] echo__echo \{"text":"over MCP"\} -> ok/);

    const shouted = await run(['run', '--config', config, 'call echo__shout {"text":"loud"}'], standIn());
    expect(shouted.stderr).toMatch(/\[tool\] echo__shout .* -> DENIED .*weir run is headless/);
    expect(shouted.stdout).not.toContain('LOUD');

    // Every server process ended with weir: none runs the script any more.
    const running = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script);
      } catch {
        return false;
      }
    });
    expect(running).toEqual([]);
  }, 120_000);
});

describe('weir run: models and flags', () => {
  it('an incomplete model configuration is an error naming what is missing, never the mock', async () => {
    sandbox = makeSandbox();
    const result = await run(['run', 'hello'], { OPENAI_MODEL: 'gpt-4.1-mini' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual(['[error] The model is set only in part (OPENAI_MODEL): the endpoint (OPENAI_BASE_URL or --base-url, e.g. http://localhost:11434/v1) is missing.']);
  }, 120_000);

  it('an unreachable endpoint (a closed loopback port) is one readable line, exit status 1, the model named first', async () => {
    sandbox = makeSandbox();
    const port = await closedPort();
    const result = await run(['run', 'hello'], { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'local', OPENAI_MAX_RETRIES: '1' });
    expect(result.code).toBe(1);
    const status = lines(result.stderr);
    expect(status[0]).toBe(`[model] openai:local at http://127.0.0.1:${port}/v1 (no OPENAI_API_KEY: no key sent)`);
    expect(status).toContainEqual(expect.stringMatching(/^\[retrying in [\d.]+ s: network\]$/));
    expect(status.at(-1)).toMatch(/^\[error\] .*127\.0\.0\.1/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const debug = await run(['run', '--debug', 'hello'], { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'local', OPENAI_MAX_RETRIES: '0' });
    expect(debug.stderr).toMatch(/\n\s+at /);
  }, 120_000);

  it('an unknown flag, a flag without its value and a missing prompt are usage errors (exit status 2)', async () => {
    sandbox = makeSandbox();
    for (const args of [['run', '--nope', 'x'], ['run', '--resume'], ['run'], ['frobnicate'], ['run', '--workspace=', 'hello']]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(lines(result.stderr), args.join(' ')).toEqual([expect.stringMatching(/^\[error\] /)]);
    }
    const missingWorkspace = await run(['run', '--workspace', join(sandbox.workspace, 'nope'), 'hello']);
    expect(missingWorkspace.code).toBe(2);
    expect(missingWorkspace.stderr).toMatch(/does not exist/);
  }, 120_000);

  it('--version prints the version', async () => {
    sandbox = makeSandbox();
    const result = await run(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n` });
  }, 120_000);
});
