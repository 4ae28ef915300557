// Command hooks in `weir run`: from the user's settings, from an untrusted project (never run: a
// marker file proves it) and, with the compat switch, from Claude Code's project files once trusted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';

let sandbox: Sandbox;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => sandbox?.remove());

const run = (args: string[]) => runWeir(args, { cwd: sandbox.workspace, env: { ...sandbox.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' } });
const put = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};
const hooks = (event: string, command: string, matcher?: string) => ({ [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] }] });

describe('weir run with command hooks', () => {
  it("a user's PreToolUse hook denies a write a rule allows, naming the hook and its settings file", async () => {
    sandbox = makeSandbox();
    const settings = join(sandbox.home, 'settings.json');
    put(settings, { safety: { rules: [{ allow: 'write_file', path: 'out.txt' }] }, hooks: hooks('PreToolUse', 'echo "no writes on Fridays" >&2; exit 2', 'Write') });
    const result = await run(['run', 'call write_file {"path":"out.txt","content":"hi\\n"}']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\[tool\] write_file .* -> DENIED/);
    expect(result.stdout).toContain('no writes on Fridays');
    expect(result.stdout).toContain(settings);
    expect(existsSync(join(sandbox.workspace, 'out.txt'))).toBe(false);
  }, 120_000);

  it("an untrusted project's hooks (.weir and, with compat, .claude) never run; trusted, they do", async () => {
    sandbox = makeSandbox();
    const marker = join(sandbox.workspace, 'marker');
    put(join(sandbox.workspace, '.weir', 'settings.json'), { hooks: { ...hooks('SessionStart', `touch ${marker}`), ...hooks('PreToolUse', `touch ${marker}; exit 2`) } });
    put(join(sandbox.workspace, '.claude', 'settings.json'), { permissions: { allow: ['Read'] }, hooks: hooks('UserPromptSubmit', `touch ${marker}`) });
    put(join(sandbox.home, 'settings.json'), { compat: { claude: true } });
    const untrusted = await run(['run', 'call read_file {"path":"notes.txt"}']);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('[hooks] 3 hooks will not run (/hooks says why)');
    expect(untrusted.stderr).toMatch(/\[tool\] read_file .* -> ok/);
    expect(existsSync(marker)).toBe(false);

    put(join(sandbox.home, 'settings.json'), { compat: { claude: true }, trustedFolders: [sandbox.workspace] });
    put(join(sandbox.workspace, '.weir', 'settings.json'), {});
    const trusted = await run(['run', 'call read_file {"path":"notes.txt"}']);
    expect(trusted.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  }, 120_000);

  it("a SubagentStop hook runs when an agent file's subagent finishes, with its last answer", async () => {
    sandbox = makeSandbox();
    mkdirSync(join(sandbox.home, 'agents'), { recursive: true });
    writeFileSync(join(sandbox.home, 'agents', 'helper.md'), '---\nname: helper\ndescription: Answers small questions.\n---\nYou help.\n');
    const payload = join(sandbox.workspace, 'subagent-stop.json');
    const other = join(sandbox.workspace, 'other-agent');
    // Matchers select by the agent's name (agent_type), as Claude Code's do.
    put(join(sandbox.home, 'settings.json'), { hooks: { SubagentStop: [{ matcher: 'helper', hooks: [{ type: 'command', command: `cat > ${payload}` }] }, { matcher: 'reviewer', hooks: [{ type: 'command', command: `touch ${other}` }] }] } });
    const result = await run(['run', 'call helper {"task":"hello"}']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('helper said: You said: hello');
    expect(JSON.parse(readFileSync(payload, 'utf8'))).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'helper', agent_id: expect.any(String), stop_hook_active: false, last_assistant_message: 'You said: hello' });
    expect(existsSync(other)).toBe(false);
  }, 120_000);
});
