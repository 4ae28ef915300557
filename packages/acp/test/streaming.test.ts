// Updates arrive as the turn runs: the first chunk before the model's answer ends.
import { describe, expect, it } from 'vitest';
import { answerText } from './support/acp-client.js';
import { finish, initialized, useAgentSandbox } from './support/agent-sandbox.js';

const sandbox = useAgentSandbox();

describe('streaming', () => {
  it('the first chunk arrives while the model is still answering', async () => {
    const agent = sandbox.start('gated');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
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
    const agent = sandbox.start('gated');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Go.' }] });
    await agent.waitForUpdate((n) => n.update.sessionUpdate === 'agent_message_chunk');
    // The gate is never released: only the abort can end the model's stream.
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(answerText(agent.updates)).toBe('First chunk. ');
    await finish(agent);
  });
});
