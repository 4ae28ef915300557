// editorFiles: the file tools go through the editor: reads see its buffers (unsaved changes
// included), writes go to it when it writes files, else never over unsaved changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { answerText, type AgentProcess } from './support/acp-client.js';
import { finish, NOTES, useAgentSandbox } from './support/agent-sandbox.js';

const sandbox = useAgentSandbox();
const UNSAVED = 'first line\nold line, changed in the editor\nlast line\n';

async function editor(agent: AgentProcess, writeTextFile: boolean) {
  await agent.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile } } });
  return (await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] })).sessionId;
}

const toolUpdates = (agent: AgentProcess) => agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update');

it("reads the editor's unsaved buffer and edits it through fs/write_text_file, the disk unchanged", async () => {
  const agent = sandbox.start('edit', { WEIR_ACP_EDITOR_FILES: '1' });
  const sessionId = await editor(agent, true);
  const notes = join(sandbox.workspace, 'notes.txt');
  agent.buffers.set(notes, UNSAVED);
  expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] })).stopReason).toBe('end_turn');
  expect(toolUpdates(agent).filter((u) => u.status === 'failed')).toHaveLength(0);
  // read_file showed the buffer: its text is in the read's result.
  expect(JSON.stringify(toolUpdates(agent).filter((u) => u.status === 'completed')[0])).toContain('changed in the editor');
  expect(agent.writes).toEqual([{ path: notes, content: 'first line\nnew line, changed in the editor\nlast line\n' }]);
  expect(answerText(agent.updates)).toContain('new line, changed in the editor');
  expect(readFileSync(notes, 'utf8')).toBe(NOTES);
  await finish(agent);
});

it('reads the unsaved buffer, but refuses to write over it when the editor does not write files', async () => {
  const agent = sandbox.start('edit', { WEIR_ACP_EDITOR_FILES: '1' });
  const sessionId = await editor(agent, false);
  agent.buffers.set(join(sandbox.workspace, 'notes.txt'), UNSAVED);
  expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] })).stopReason).toBe('end_turn');
  expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
  expect(toolUpdates(agent).filter((u) => u.status === 'failed')).toHaveLength(1);
  expect(answerText(agent.updates)).toMatch(/UNSAVED_IN_EDITOR|unsaved changes in the editor/);
  expect(agent.writes).toEqual([]);
  await finish(agent);
});

it("writes the disk as usual when the editor does not write files and its buffer is the file on disk", async () => {
  const agent = sandbox.start('edit', { WEIR_ACP_EDITOR_FILES: '1' });
  const sessionId = await editor(agent, false);
  expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] })).stopReason).toBe('end_turn');
  expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('first line\nnew line\nlast line\n');
  await finish(agent);
});
