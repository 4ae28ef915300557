// Every ask of weir's policy as session/request_permission, and what each answer does to the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerText } from './support/acp-client.js';
import { finish, initialized, NOTES, useAgentSandbox } from './support/agent-sandbox.js';

const sandbox = useAgentSandbox();

describe('permissions: every ask is a session/request_permission', () => {
  it('reads and edits a file once the editor allows it, and shows the edit as a diff', async () => {
    const agent = sandbox.start('edit');
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('first line\nnew line\nlast line\n');
    // read_file is read-only: only the edit asked, about the call the editor already shows.
    expect(agent.permissions).toHaveLength(1);
    const [ask] = agent.permissions;
    expect(ask!.options.map((option) => option.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const calls = agent.updates.filter((n) => n.update.sessionUpdate === 'tool_call').map((n) => n.update as { toolCallId: string; kind: string; title: string; locations: { path: string }[] });
    expect(calls.map((call) => call.kind)).toEqual(['read', 'edit']);
    expect(ask!.toolCall.toolCallId).toBe(calls[1]!.toolCallId);
    expect(calls[1]!.locations).toEqual([{ path: join(sandbox.workspace, 'notes.txt') }]);
    const done = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === calls[1]!.toolCallId && u.status === 'completed');
    expect(done).toBeDefined();
    const diff = (done as { content: { type: string; path?: string; oldText?: string; newText?: string }[] }).content.find((c) => c.type === 'diff');
    expect(diff).toEqual({ type: 'diff', path: join(sandbox.workspace, 'notes.txt'), oldText: NOTES, newText: 'first line\nnew line\nlast line\n' });
    expect(answerText(agent.updates)).toMatch(/^The edit said: /);
    await finish(agent);
  });

  it('leaves the file unchanged when the editor rejects, and the model reads the denial', async () => {
    const agent = sandbox.start('edit');
    agent.answer = async (request) => ({ outcome: { outcome: 'selected', optionId: request.options.find((option) => option.kind === 'reject_once')!.optionId } });
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
    expect(agent.permissions).toHaveLength(1);
    expect(answerText(agent.updates)).toMatch(/The edit said: .*rejected this edit_file call in the editor/);
    const failed = agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
    expect(failed).toHaveLength(1);
    await finish(agent);
  });

  it('"allow always" grants the rest of the session: the second edit of the file is not asked', async () => {
    const agent = sandbox.start('edit-twice');
    agent.answer = async (request) => ({ outcome: { outcome: 'selected', optionId: request.options.find((option) => option.kind === 'allow_always')!.optionId } });
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect((await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Edit it twice.' }] })).stopReason).toBe('end_turn');
    expect(agent.permissions).toHaveLength(1);
    expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('first line\nnewer line\nlast line\n');
    await finish(agent);
  });

  it('cancelling while the editor is asked withdraws the request: the call is denied and the file unchanged', async () => {
    const agent = sandbox.start('edit-cancelled');
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    agent.answer = () => {
      asked();
      return new Promise(() => undefined);
    };
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    await askedOnce;
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
    await finish(agent);
  });

  it('denies a call the editor does not answer within the deadline', async () => {
    const agent = sandbox.start('edit', { WEIR_ACP_PERMISSION_MS: '300' });
    agent.answer = () => new Promise(() => undefined);
    await initialized(agent);
    const { sessionId } = await agent.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const response = await agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Change the old line.' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
    expect(answerText(agent.updates)).toMatch(/Nobody answered the permission request for this edit_file call within 0 s/);
    await finish(agent);
  });
});

