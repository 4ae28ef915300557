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
