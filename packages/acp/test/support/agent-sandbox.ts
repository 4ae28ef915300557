// One spawned agent per test (test/support/fixture-agent.ts) in a workspace and session store of
// the test's own, with the SDK's client on its stdio. Spawning costs a few seconds (tsx); the
// pipes, the exit on a closed input and the session files a later process reads are what the
// ACP suites test, so the agent is never run in process.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { PROTOCOL_VERSION, type InitializeResponse } from '@agentclientprotocol/sdk';
import { fixtureAgent, spawnAgent, type AgentProcess } from './acp-client.js';

export const NOTES = 'first line\nold line\nlast line\n';

/** The test's folders: `workspace` (with notes.txt) and the session store beside it. */
export interface AgentSandbox {
  readonly workspace: string;
  /** Spawns the fixture agent with `scenario` (its scripted model); ended after the test. */
  readonly start: (scenario: string, env?: NodeJS.ProcessEnv) => AgentProcess;
}

/** Registers the hooks that make and remove a sandbox around each test of the file. */
export function useAgentSandbox(): AgentSandbox {
  let dir = '';
  const started: AgentProcess[] = [];
  const sandbox = {
    workspace: '',
    start: (scenario: string, env: NodeJS.ProcessEnv = {}) => {
      const agent = spawnAgent([fixtureAgent, scenario], { cwd: sandbox.workspace, env: { ...process.env, WEIR_ACP_STORE: join(dir, 'sessions'), ...env } });
      started.push(agent);
      return agent;
    },
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'weir-acp-test-'));
    sandbox.workspace = join(dir, 'workspace');
    mkdirSync(sandbox.workspace);
    writeFileSync(join(sandbox.workspace, 'notes.txt'), NOTES);
  });
  afterEach(async () => {
    for (const agent of started.splice(0)) {
      agent.child.stdin?.end();
      await agent.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return sandbox;
}

export async function initialized(agent: AgentProcess): Promise<InitializeResponse> {
  return agent.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
}

/** Ends the client's side and waits for the process: it must exit 0 (every scripted step used). */
export async function finish(agent: AgentProcess): Promise<void> {
  agent.child.stdin!.end();
  expect(await agent.exited, agent.stderr()).toBe(0);
}
