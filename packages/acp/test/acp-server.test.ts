// weir's ACP server as an editor meets it: a process of its own (test/support/fixture-agent.ts),
// the SDK's client on its real stdio pipes. Each test spawns one or two processes (tsx, about 3 to
// 8 s each on a loaded machine): the pipes, the exit on a closed input and the session files left
// for the next process are what is tested, so they are not run in process.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { answerText, fixtureAgent, spawnAgent, type AgentProcess } from './support/acp-client.js';

const NOTES = 'first line\nold line\nlast line\n';
let dir: string;
let workspace: string;
let store: string;
const started: AgentProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'weir-acp-test-'));
  workspace = join(dir, 'workspace');
  store = join(dir, 'sessions');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), NOTES);
});

afterEach(async () => {
  for (const agent of started.splice(0)) {
    agent.child.stdin?.end();
    await agent.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

function start(scenario: string, env: NodeJS.ProcessEnv = {}): AgentProcess {
  const agent = spawnAgent([fixtureAgent, scenario], { cwd: workspace, env: { ...process.env, WEIR_ACP_STORE: store, ...env } });
  started.push(agent);
  return agent;
}

async function initialized(agent: AgentProcess) {
  return await agent.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
}

/** Ends the client's side and waits for the process: it must exit 0 (every scripted step used). */
async function finish(agent: AgentProcess): Promise<void> {
  agent.child.stdin!.end();
  expect(await agent.exited, agent.stderr()).toBe(0);
  started.splice(started.indexOf(agent), 1);
}

describe('weir over ACP (a spawned agent, the SDK client on its stdio)', () => {
  it('initializes, opens a session and streams a prompt\'s answer and thought', async () => {
    const agent = start('hello');
    const init = await initialized(agent);
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } }, agentInfo: { name: 'weir-fixture' } });
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    expect(sessionId).toMatch(/./);
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hi!' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(answerText(agent.updates)).toBe('Hello from weir.');
    expect(agent.updates.some((n) => n.update.sessionUpdate === 'agent_thought_chunk')).toBe(true);
    expect(agent.updates.every((n) => n.sessionId === sessionId)).toBe(true);
    await finish(agent);
  });
});

describe('permissions: every ask is a session/request_permission', () => {
  it('reads and edits a file once the editor allows it, and shows the edit as a diff', async () => {
    const agent = start('edit');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('first line\nnew line\nlast line\n');
    // read_file is read-only: only the edit asked, about the call the editor already shows.
    expect(agent.permissions).toHaveLength(1);
    const [ask] = agent.permissions;
    expect(ask!.options.map((option) => option.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const calls = agent.updates.filter((n) => n.update.sessionUpdate === 'tool_call').map((n) => n.update as { toolCallId: string; kind: string; title: string; locations: { path: string }[] });
    expect(calls.map((call) => call.kind)).toEqual(['read', 'edit']);
    expect(ask!.toolCall.toolCallId).toBe(calls[1]!.toolCallId);
    expect(calls[1]!.locations).toEqual([{ path: join(workspace, 'notes.txt') }]);
    const done = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === calls[1]!.toolCallId && u.status === 'completed');
    expect(done).toBeDefined();
    const diff = (done as { content: { type: string; path?: string; oldText?: string; newText?: string }[] }).content.find((c) => c.type === 'diff');
    expect(diff).toEqual({ type: 'diff', path: join(workspace, 'notes.txt'), oldText: NOTES, newText: 'first line\nnew line\nlast line\n' });
    expect(answerText(agent.updates)).toMatch(/^The edit said: /);
    await finish(agent);
  });

  it('leaves the file unchanged when the editor rejects, and the model reads the denial', async () => {
    const agent = start('edit');
    agent.answer = async (request) => ({ outcome: { outcome: 'selected', optionId: request.options.find((option) => option.kind === 'reject_once')!.optionId } });
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
    expect(agent.permissions).toHaveLength(1);
    expect(answerText(agent.updates)).toMatch(/The edit said: .*rejected this edit_file call in the editor/);
    const failed = agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
    expect(failed).toHaveLength(1);
    await finish(agent);
  });

  it('"allow always" grants the rest of the session: the second edit of the file is not asked', async () => {
    const agent = start('edit-twice');
    agent.answer = async (request) => ({ outcome: { outcome: 'selected', optionId: request.options.find((option) => option.kind === 'allow_always')!.optionId } });
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Edit it twice.' }] })).stopReason).toBe('end_turn');
    expect(agent.permissions).toHaveLength(1);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('first line\nnewer line\nlast line\n');
    await finish(agent);
  });

  it('cancelling while the editor is asked withdraws the request: the call is denied and the file unchanged', async () => {
    const agent = start('edit-cancelled');
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    agent.answer = () => {
      asked();
      return new Promise(() => undefined);
    };
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    await askedOnce;
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
    await finish(agent);
  });

  it('denies a call the editor does not answer within the deadline', async () => {
    const agent = start('edit', { WEIR_ACP_PERMISSION_MS: '300' });
    agent.answer = () => new Promise(() => undefined);
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
    expect(answerText(agent.updates)).toMatch(/Nobody answered the permission request for this edit_file call within 0 s/);
    await finish(agent);
  });
});

describe('cancel, disconnect and load', () => {
  const slowStarted = (agent: AgentProcess) => agent.waitForUpdate((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.status === 'in_progress');

  it('session/cancel aborts the turn and the running tool sees the abort', async () => {
    const agent = start('slow');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait.' }] });
    await slowStarted(agent);
    expect(existsSync(join(workspace, 'slow-tool-aborted.txt'))).toBe(false);
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(readFileSync(join(workspace, 'slow-tool-aborted.txt'), 'utf8')).toMatch(/cancelled the turn/);
    await finish(agent);
  });

  it('a client that disconnects mid-turn: the turn is aborted, the session saved, and a new process loads it', async () => {
    const first = start('slow');
    await initialized(first);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    void first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait for me.' }] }).catch(() => undefined);
    await slowStarted(first);
    await finish(first);
    expect(readFileSync(join(workspace, 'slow-tool-aborted.txt'), 'utf8')).toMatch(/disconnected/);
    expect(first.stderr()).toMatch(/1 session saved/);

    const second = start('hello');
    await initialized(second);
    await second.connection.agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const replayed = second.updates.map((n) => n.update);
    expect(replayed[0]).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Wait for me.' } });
    expect(replayed.some((u) => u.sessionUpdate === 'tool_call' && u.title === 'slow_tool')).toBe(true);
    expect(replayed.some((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed')).toBe(true);
    // The loaded session goes on.
    second.updates.length = 0;
    expect((await second.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hi again.' }] })).stopReason).toBe('end_turn');
    expect(answerText(second.updates)).toBe('Hello from weir.');
    await finish(second);
  });
});

describe('streaming', () => {
  it('the first chunk arrives while the model is still answering', async () => {
    const agent = start('gated');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    let answered = false;
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Go.' }] }).finally(() => (answered = true));
    const first = await agent.waitForUpdate((n) => n.update.sessionUpdate === 'agent_message_chunk');
    expect(first.update).toMatchObject({ content: { type: 'text', text: 'First chunk. ' } });
    // The model's stream is held at its gate: nothing else came, the prompt is not answered.
    expect(answered).toBe(false);
    expect(answerText(agent.updates)).toBe('First chunk. ');
    agent.child.kill('SIGUSR2');
    expect((await prompt).stopReason).toBe('end_turn');
    expect(answerText(agent.updates)).toBe('First chunk. And the rest.');
    await finish(agent);
  });

  it('session/cancel aborts a model call in the middle of its answer', async () => {
    const agent = start('gated');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Go.' }] });
    await agent.waitForUpdate((n) => n.update.sessionUpdate === 'agent_message_chunk');
    // The gate is never released: only the abort can end the model's stream.
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(answerText(agent.updates)).toBe('First chunk. ');
    await finish(agent);
  });
});
