// A session's life over ACP: initialize, new, prompt, cancel, disconnect, load in a new process.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerText, type AgentProcess } from './support/acp-client.js';
import { finish, initialized, useAgentSandbox } from './support/agent-sandbox.js';

const sandbox = useAgentSandbox();

describe('weir over ACP (a spawned agent, the SDK client on its stdio)', () => {
  it('initializes, opens a session and streams a prompt\'s answer and thought', async () => {
    const agent = sandbox.start('hello');
    const init = await initialized(agent);
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } }, agentInfo: { name: 'weir-fixture' } });
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect(sessionId).toMatch(/./);
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hi!' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(answerText(agent.updates)).toBe('Hello from weir.');
    expect(agent.updates.some((n) => n.update.sessionUpdate === 'agent_thought_chunk')).toBe(true);
    expect(agent.updates.every((n) => n.sessionId === sessionId)).toBe(true);
    await finish(agent);
  });
});

describe('cancel, disconnect and load', () => {
  const slowStarted = (agent: AgentProcess) => agent.waitForUpdate((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.status === 'in_progress');

  it('session/cancel aborts the turn and the running tool sees the abort', async () => {
    const agent = sandbox.start('slow');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait.' }] });
    await slowStarted(agent);
    expect(existsSync(join(sandbox.workspace, 'slow-tool-aborted.txt'))).toBe(false);
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(readFileSync(join(sandbox.workspace, 'slow-tool-aborted.txt'), 'utf8')).toMatch(/cancelled the turn/);
    await finish(agent);
  });

  it('a client that disconnects mid-turn: the turn is aborted, the session saved, and a new process loads it', async () => {
    const first = sandbox.start('slow');
    await initialized(first);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    void first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait for me.' }] }).catch(() => undefined);
    await slowStarted(first);
    await finish(first);
    expect(readFileSync(join(sandbox.workspace, 'slow-tool-aborted.txt'), 'utf8')).toMatch(/disconnected/);
    expect(first.stderr()).toMatch(/1 session saved/);

    const second = sandbox.start('hello');
    await initialized(second);
    await second.connection.agent.request('session/load', { sessionId, cwd: sandbox.workspace, mcpServers: [] });
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

