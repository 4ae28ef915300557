// `weir acp` as an editor starts it: its own process, the ACP SDK's client on its standard input
// and output, the mock model (no key), a weir home and a workspace of the test's own.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, PROTOCOL_VERSION, type ClientConnection, type ContentBlock, type SessionNotification } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeEchoServer } from './support/echo-mcp-server.js';
import { makeSandbox, weirCommand, type Sandbox } from './support/run-weir.js';

interface Editor {
  readonly child: ChildProcess;
  readonly connection: ClientConnection;
  readonly updates: SessionNotification[];
  readonly stderr: () => string;
  /** Closes the editor's side; resolves with the exit status. */
  readonly quit: () => Promise<number | null>;
}

let sandbox: Sandbox;
const editors: Editor[] = [];

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(async () => {
  for (const editor of editors.splice(0)) await editor.quit();
  sandbox.remove();
});

function startWeirAcp(args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Editor {
  const [node, ...rest] = weirCommand;
  const child = spawn(node!, [...rest, 'acp', ...args], { cwd: sandbox.home.replace(/home$/, ''), env: { ...sandbox.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (piece: string) => (stderr += piece));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => void updates.push(params))
    .onRequest('session/request_permission', ({ params }) => ({ outcome: { outcome: 'selected', optionId: params.options[0]!.optionId } }));
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  const editor: Editor = {
    child,
    connection,
    updates,
    stderr: () => stderr,
    quit: async () => {
      child.stdin!.end();
      return exited;
    },
  };
  editors.push(editor);
  return editor;
}

const answer = (updates: readonly SessionNotification[]) =>
  updates.map((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : '')).join('');

it('weir acp: initialize, a new session in the editor\'s folder, a prompt that reads a file, then load in a restarted process', async () => {
  const first = startWeirAcp();
  const init = await first.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  expect(init).toMatchObject({ protocolVersion: 1, agentInfo: { name: 'weir' }, agentCapabilities: { loadSession: true } });
  const { sessionId } = await first.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
  const response = await first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read file notes.txt' }] });
  expect(response.stopReason).toBe('end_turn');
  expect(answer(first.updates)).toContain('Buy milk. Call Ada about the weir plugin.');
  expect(first.updates.map((n) => n.update)).toContainEqual(expect.objectContaining({ sessionUpdate: 'tool_call', kind: 'read', title: 'read_file notes.txt', locations: [{ path: join(sandbox.workspace, 'notes.txt') }] }));
  expect(await first.quit()).toBe(0);
  // The CLI's model line and session store: standard error and <workspace>/.weir/sessions.
  expect(first.stderr()).toMatch(/^\[model\] mock:rules/);
  expect(readdirSync(join(sandbox.workspace, '.weir', 'sessions')).some((name) => name.startsWith(sessionId))).toBe(true);

  const second = startWeirAcp();
  await second.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  await second.connection.agent.request('session/load', { sessionId, cwd: sandbox.workspace, mcpServers: [] });
  expect(second.updates[0]!.update).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'read file notes.txt' } });
  expect(answer(second.updates)).toContain('Buy milk.');
  expect(await second.quit()).toBe(0);
});

it('weir acp: an untrusted project\'s config is not loaded, as in the CLI; the MCP servers the editor passes are', async () => {
  writeFileSync(join(sandbox.workspace, 'weir.config.json'), JSON.stringify({ plugins: ['weir-plugin-that-does-not-exist'] }));
  const script = writeEchoServer(sandbox.workspace);
  const editor = startWeirAcp();
  await editor.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [{ name: 'echo', command: process.execPath, args: [script], env: [] }] });
  // The mock calls a tool only when the harness offers it, and says so when it does not.
  await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run tool echo__echo' }] });
  expect(editor.updates.map((n) => n.update)).toContainEqual(expect.objectContaining({ sessionUpdate: 'tool_call', title: 'echo__echo', kind: 'other' }));
  expect(await editor.quit()).toBe(0);
  expect(editor.stderr()).toContain(`[config] ${join(sandbox.workspace, 'weir.config.json')} is not used: this folder is not trusted.`);
  expect(existsSync(join(sandbox.home, 'settings.json'))).toBe(false);
});

it('weir acp: a model set up in part is "authentication required", with the line saying what is missing', async () => {
  const editor = startWeirAcp([], { ANTHROPIC_MODEL: 'claude-sonnet-4-5', ANTHROPIC_API_KEY: '' });
  const init = await editor.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  expect(init.authMethods).toEqual([{ id: 'weir-model-key', name: "Set the model's key in weir's environment", description: expect.stringContaining('ANTHROPIC_API_KEY') }]);
  const refused = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ code: -32000, message: expect.stringContaining('ANTHROPIC_API_KEY') });
  expect(await editor.quit()).toBe(0);
  expect(existsSync(join(sandbox.workspace, '.weir', 'sessions'))).toBe(false);
});

it('weir acp: a trusted session folder\'s config "model" is that session\'s model, over the environment\'s', async () => {
  writeFileSync(join(sandbox.workspace, 'weir.config.json'), JSON.stringify({ model: 'mock:rules' }));
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(join(sandbox.home, 'settings.json'), JSON.stringify({ trustedFolders: [sandbox.workspace] }));
  // The process's model is an endpoint nothing listens on: the answer comes from the mock or not at all.
  const editor = startWeirAcp([], { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'nobody', OPENAI_MAX_RETRIES: '0' });
  await editor.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
  const response = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read file notes.txt' }] });
  expect(response.stopReason).toBe('end_turn');
  expect(answer(editor.updates)).toContain('Buy milk.');
  expect(await editor.quit()).toBe(0);
  expect(editor.stderr()).toContain(`[model] mock:rules (the mock model) (from weir.config.json) in ${sandbox.workspace}`);
});

it('weir acp: with the process\'s model set up in part, a trusted folder whose config names a model still opens sessions', async () => {
  writeFileSync(join(sandbox.workspace, 'weir.config.json'), JSON.stringify({ model: 'mock:rules' }));
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(join(sandbox.home, 'settings.json'), JSON.stringify({ trustedFolders: [sandbox.workspace] }));
  const elsewhere = join(sandbox.workspace, '..', 'elsewhere');
  mkdirSync(elsewhere, { recursive: true });
  const editor = startWeirAcp([], { ANTHROPIC_MODEL: 'claude-sonnet-4-5', ANTHROPIC_API_KEY: '' });
  const init = await editor.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  expect(init.authMethods).toHaveLength(1);
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
  const response = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read file notes.txt' }] });
  expect(response.stopReason).toBe('end_turn');
  expect(answer(editor.updates)).toContain('Buy milk.');
  // A folder with no model of its own is still refused, with the line saying what is missing.
  const refused = await editor.connection.agent.request('session/new', { cwd: elsewhere, mcpServers: [] }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ code: -32000, message: expect.stringContaining('ANTHROPIC_API_KEY') });
  expect(await editor.quit()).toBe(0);
});

it("weir acp: a user's UserPromptSubmit hook that blocks a prompt with an attached file: the editor is told why, and the model never sees it", async () => {
  mkdirSync(sandbox.home, { recursive: true });
  const blocking = 'grep -q "sk-" && { echo "no secrets in prompts" >&2; exit 2; }; exit 0';
  writeFileSync(join(sandbox.home, 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: blocking }] }] } }));
  const editor = startWeirAcp();
  await editor.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
  const prompt: ContentBlock[] = [
    { type: 'text', text: 'read file notes.txt' },
    { type: 'resource', resource: { uri: `file://${join(sandbox.workspace, '.env')}`, text: 'API_KEY=sk-live-123' } },
  ];
  const response = await editor.connection.agent.request('session/prompt', { sessionId, prompt });
  expect(response.stopReason).toBe('end_turn');
  expect(answer(editor.updates)).toMatch(/^The prompt was blocked by a hook: .*no secrets in prompts/);
  expect(editor.updates.map((n) => n.update.sessionUpdate)).not.toContain('tool_call');
  // Without the attachment the same prompt goes through.
  const plain = await editor.connection.agent.request('session/prompt', { sessionId, prompt: [prompt[0]!] });
  expect(plain.stopReason).toBe('end_turn');
  expect(answer(editor.updates)).toContain('Buy milk.');
  expect(await editor.quit()).toBe(0);
});
