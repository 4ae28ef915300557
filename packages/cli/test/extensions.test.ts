// AGENTS.md, skills, command files and subagents in the CLI: what reaches the model's first
// request, `weir run "/name args"`, a command's allowed-tools, and `/context`'s account.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_COMMAND_NAMES } from '../src/builtin-commands.js';
import { contextLines } from '../src/context-lines.js';
import { SLASH_COMMANDS } from '../src/slash-commands.js';
import { loadWorkspaceExtensions } from '../src/workspace-extensions.js';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';

let sandbox: Sandbox;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  sandbox?.remove();
});

const put = (root: string, path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const SKILL = '---\nname: release\ndescription: Cuts a release. Use when asked to ship.\n---\nRELEASE BODY: bump VERSION first.\n';

function project(): Sandbox {
  const made = makeSandbox();
  put(made.workspace, 'AGENTS.md', 'Always answer in one line.');
  put(made.home, 'AGENTS.md', 'The person prefers British spelling.');
  put(made.workspace, '.weir/skills/release/SKILL.md', SKILL);
  put(made.workspace, '.weir/commands/peek.md', '---\ndescription: Reads a file\nargument-hint: <file>\n---\ncall read_file {"path":"$1"}');
  put(made.workspace, '.weir/commands/lookup.md', '---\ndescription: Finds files\nallowed-tools: Read\n---\ncall find_files {"pattern":"$ARGUMENTS"}');
  put(made.workspace, '.weir/commands/help.md', 'not weir help');
  return made;
}

describe('weir run with project files', () => {
  const run = (prompt: string) => runWeir(['run', prompt], { cwd: sandbox.workspace, env: { ...sandbox.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' } });

  it('"/peek notes.txt" runs the command file; the first request carries the AGENTS.md files and the skill list, not the skill body', async () => {
    sandbox = project();
    const before = server.requests.length;
    const result = await run('/peek notes.txt');
    expect(result.stderr).toContain('[context] 1 file was not loaded (/context says why)');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('read_file said:');
    expect(result.stdout).toContain('Buy milk.');
    const first = server.requests[before]!;
    const system = String(first.messages[0]!.content);
    expect(first.messages[0]!.role).toBe('system');
    expect(system.indexOf('The person prefers British spelling.')).toBeLessThan(system.indexOf('Always answer in one line.'));
    expect(system).toContain('- release: Cuts a release. Use when asked to ship.');
    expect(JSON.stringify(first)).not.toContain('RELEASE BODY');
    expect(first.messages.at(-1)).toMatchObject({ role: 'user', content: 'call read_file {"path":"notes.txt"}' });
  }, 120_000);

  it("a command's allowed-tools narrow its turn: a tool it does not list is blocked", async () => {
    sandbox = project();
    const result = await run('/lookup *.txt');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[command] /lookup: only Read run this turn (the safety rules still decide each)');
    expect(result.stdout).toContain('the command /lookup allows only Read while it is active');
  }, 120_000);

  it('an unknown /name is a usage error naming the command files; a path is still a prompt', async () => {
    sandbox = project();
    const unknown = await run('/nope now');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('/nope is not a command file (in .weir/commands/ or ~/.weir/commands/); the commands: /lookup, /peek.');
    const path = await run('/etc/hosts is a file');
    expect(path.code).toBe(0);
    expect(path.stdout).toContain('You said: /etc/hosts is a file');
  }, 120_000);
});

const showcase = sharedFixture('claude-ecosystem/plugins/_standalone-commands/ChrisWiles__claude-code-showcase/.claude', "a published .claude/commands folder runs with the compat switch");
const safetyNet = sharedFixture('claude-ecosystem/agents-md/kenryu42__claude-code-safety-net', 'a published CLAUDE.md joins with the compat switch');

describe.runIf(showcase !== undefined && safetyNet !== undefined)('weir run with Claude Code\'s files and the compat switch', () => {
  it('the published /ticket command runs with its arguments, and AGENTS.md joins once though CLAUDE.md imports it', async () => {
    sandbox = makeSandbox();
    // Copied into the test's own temporary workspace, as a person's clone would hold them.
    cpSync(showcase!, join(sandbox.workspace, '.claude'), { recursive: true });
    cpSync(join(safetyNet!, 'AGENTS.md'), join(sandbox.workspace, 'AGENTS.md'));
    cpSync(join(safetyNet!, 'CLAUDE.md'), join(sandbox.workspace, 'CLAUDE.md'));
    const env = { ...sandbox.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' };
    const off = await runWeir(['run', '/ticket PROJ-7'], { cwd: sandbox.workspace, env });
    expect(off.code).toBe(2);
    put(sandbox.home, 'settings.json', JSON.stringify({ compat: { claude: true } }));
    const before = server.requests.length;
    const on = await runWeir(['run', '/ticket PROJ-7'], { cwd: sandbox.workspace, env });
    expect(on.code).toBe(0);
    expect(on.stderr).toContain('[command] /ticket: only Read, Write, Edit, Glob, Grep, Bash(git:*), Bash(gh:*), Bash(npm:*), mcp__jira__*, mcp__github__*, mcp__linear__* run this turn');
    expect(on.stdout).toContain('You said: # Ticket Workflow');
    expect(on.stdout).toContain('Work on ticket: PROJ-7');
    const system = String(server.requests[before]!.messages[0]!.content);
    expect(system.match(/# Style Guide/g)).toHaveLength(1);
    expect(system).toContain('(AGENTS.md: already included above)');
  }, 120_000);
});

describe.skipIf(tmuxMissing !== undefined)('weir, interactive, with project files', () => {
  it('/help lists the command files, /context what loaded, and /peek notes.txt runs one', async () => {
    sandbox = project();
    terminal = startTerminal([], sandbox.workspace, { ...sandbox.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' });
    const t = terminal;
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('/help');
    await t.waitFor(/\/peek <file>\s+Reads a file \(project\)/);
    await t.type('/context');
    await t.waitFor(/\[context\] skills: 1, their list \d+ bytes in the prompt[\s\S]*release {2}project {2}\.weir\/skills\/release\/SKILL\.md/);
    await t.waitFor(/\.weir\/commands\/help\.md: not loaded: \/help is a command of weir's own/);
    await t.type('/peek notes.txt');
    await t.waitFor(/read_file said:[\s\S]*Buy milk\./);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
  }, 120_000);
});

describe('/context and /help', () => {
  it("/context lists each file with its source and size, and what did not load and why", async () => {
    sandbox = project();
    const extensions = await loadWorkspaceExtensions({ workspace: sandbox.workspace, home: sandbox.home, claude: false, reservedCommands: BUILTIN_COMMAND_NAMES });
    const lines = contextLines(extensions, sandbox.workspace);
    expect(lines).toContainEqual('[context] instructions: 2 files, 62 bytes in the prompt');
    expect(lines).toContainEqual('  AGENTS.md  project  26 bytes');
    expect(lines).toContainEqual(`  ${join(sandbox.home, 'AGENTS.md')}  user  36 bytes`);
    expect(lines).toContainEqual(`  release  project  .weir/skills/release/SKILL.md  ${Buffer.byteLength(SKILL)} bytes`);
    expect(lines).toContainEqual(expect.stringMatching(/^\[context\] skills: 1, their list \d+ bytes in the prompt \(bodies load when the model asks\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\/peek {2}project {2}\.weir\/commands\/peek\.md {2}\d+ bytes$/));
    expect(lines).toContainEqual("  .weir/commands/help.md: not loaded: /help is a command of weir's own");
  });

  it("every command /help lists is one a command file cannot take", () => {
    for (const [name] of SLASH_COMMANDS) expect(BUILTIN_COMMAND_NAMES).toContain(name.slice(1).split(' ')[0]);
  });
});
