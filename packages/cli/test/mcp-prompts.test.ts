// An MCP server's prompts as slash commands (`/mcp__<server>__<prompt> args`), with the server
// configured as the CLI configures servers (mcpServers in a config file): in the interactive weir
// (a real terminal) and in `weir run`. What reaches the model is read from the stand-in model's requests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { writePromptServer } from './support/prompt-mcp-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';

let sandbox: Sandbox;
let server: ModelServer;
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
});

const standIn = () => ({ OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' });
/** A sandbox whose config file starts the prompt server as `docs`; returns the config's path. */
function withPromptServer(): string {
  sandbox = makeSandbox();
  const script = writePromptServer(sandbox.workspace);
  const config = join(sandbox.workspace, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [script] } } }));
  return config;
}
/** The last user message of the model's requests since `before`, as the wire sent it. */
const lastUserTurn = (before: number) => {
  const request = server.requests.slice(before).at(0);
  return JSON.stringify(request?.messages.filter((message) => message.role === 'user').at(-1));
};

describe.skipIf(tmuxMissing !== undefined)('weir, interactive: MCP prompts as slash commands', () => {
  it('/help lists them; /mcp__docs__review runs the prompt as the user turn; a missing argument is a one-line error', async () => {
    const config = withPromptServer();
    terminal = startTerminal(['--config', config], sandbox.workspace, { ...sandbox.env, ...standIn() });
    const t = terminal;
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('/help');
    await t.waitFor(/\/mcp__docs__review <file> \[focus\] Reviews a file\. \(MCP server docs\)/);
    expect(t.screen()).not.toContain('Second line, not shown');
    expect(t.screen()).toMatch(/\/mcp__docs__brief\s+A short brief\. \(MCP server docs\)/);

    await t.type('/mcp__docs__review');
    await t.waitFor(/\[error\] \/mcp__docs__review: missing the required argument "file" \(usage: \/mcp__docs__review <file> \[focus\]\)/);

    const before = server.requests.length;
    await t.type('/mcp__docs__review notes.txt focus="the names"');
    await t.waitFor(/You said: Please review notes\.txt, looking at the names\./);
    const turn = lastUserTurn(before);
    expect(turn).toContain('Please review notes.txt, looking at the names.');
    expect(turn).toContain('PROMPT RESOURCE: contents of notes.txt');

    await t.type('/mcp__docs__nope');
    await t.waitFor(/\[error\] \/mcp__docs__nope is not a prompt of a loaded MCP server; the prompts: \/mcp__docs__review, \/mcp__docs__brief\./);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
  }, 120_000);
});

describe('weir run: MCP prompts', () => {
  it('"/mcp__docs__brief" is the prompt\'s text as the turn; bad arguments are a usage error (exit 2)', async () => {
    const config = withPromptServer();
    const before = server.requests.length;
    const brief = await runWeir(['run', '--config', config, '/mcp__docs__brief'], { cwd: sandbox.workspace, env: { ...sandbox.env, ...standIn() } });
    expect(brief.code).toBe(0);
    expect(brief.stdout).toBe('You said: Write a two-line brief.\n');
    expect(server.requests[before]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Write a two-line brief.' });

    const extra = await runWeir(['run', '--config', config, '/mcp__docs__brief now'], { cwd: sandbox.workspace, env: { ...sandbox.env, ...standIn() } });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('[error] /mcp__docs__brief: too many arguments: "now" has no argument left to fill (usage: /mcp__docs__brief)');
  }, 120_000);
});
