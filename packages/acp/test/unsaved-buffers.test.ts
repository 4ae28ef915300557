// editorFiles: a file tool never runs on a file whose editor buffer has unsaved changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { answerText, type AgentProcess } from './support/acp-client.js';
import { finish, NOTES, useAgentSandbox } from './support/agent-sandbox.js';

const sandbox = useAgentSandbox();

async function editorThatReadsFiles(agent: AgentProcess) {
  await agent.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false } } });
  return (await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] })).sessionId;
}

it('refuses to read or edit a file with unsaved changes in the editor, and the model reads why', async () => {
  const agent = sandbox.start('edit', { WEIR_ACP_EDITOR_FILES: '1' });
  const sessionId = await editorThatReadsFiles(agent);
  agent.buffers.set(join(sandbox.workspace, 'notes.txt'), 'first line\nold line, changed in the editor\nlast line\n');
  expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] })).stopReason).toBe('end_turn');
  expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
  const failed = agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
  expect(failed).toHaveLength(2);
  expect(answerText(agent.updates)).toMatch(/UNSAVED_IN_EDITOR|unsaved changes in the editor/);
  await finish(agent);
});

it('runs the tools as usual when the editor\'s buffer is the file on disk', async () => {
  const agent = sandbox.start('edit', { WEIR_ACP_EDITOR_FILES: '1' });
  const sessionId = await editorThatReadsFiles(agent);
  expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] })).stopReason).toBe('end_turn');
  expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('first line\nnew line\nlast line\n');
  await finish(agent);
});
