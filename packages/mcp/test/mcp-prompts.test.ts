// A server's prompts through the plugin (prompts(), getPrompt()), against a server of the tests'
// own built with the SDK's McpServer (fixtures/task-server.mjs).
import { createHarness, type Harness } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { childrenOfThisProcess, fixture, NODE } from './servers.js';

let harness: Harness;
beforeEach(() => {
  harness = createHarness();
});
afterEach(async () => {
  await harness.close();
  expect(childrenOfThisProcess()).toEqual([]);
});

const server = () => mcpServer({ name: 'srv', command: NODE, args: [fixture('task-server.mjs')], tiers: { '*': 'read-only' } });

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a server\'s prompts', () => {
  it('are listed once the plugin is loaded, with their arguments, and forgotten when it unloads', async () => {
    const plugin = server();
    expect(plugin.prompts()).toEqual([]);
    const unload = await harness.use(plugin);
    expect(plugin.server).toBe('srv');
    expect(plugin.prompts()).toEqual([
      {
        name: 'review',
        title: 'Code review',
        description: 'Reviews a file.',
        arguments: [
          { name: 'file', description: 'The file to review', required: true },
          { name: 'focus', description: 'What to look at', required: false },
        ],
      },
      { name: 'greet', description: 'Says hello.', arguments: [] },
    ]);
    await unload();
    expect(plugin.prompts()).toEqual([]);
    await expect(plugin.getPrompt('greet', {})).rejects.toMatchObject({ code: 'MCP_SERVER_UNAVAILABLE' });
  });

  it('a prompt fetched with its arguments gives its messages as content parts: text, image, embedded resource', async () => {
    const plugin = server();
    await harness.use(plugin);
    const result = await plugin.getPrompt('review', { file: 'src/a.ts', focus: 'naming' });
    expect(result.description).toBe('Review of src/a.ts');
    expect(result.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Please review src/a.ts, looking at naming.' }] },
      { role: 'user', parts: [{ type: 'image', data: expect.any(String), mediaType: 'image/png' }] },
      { role: 'user', parts: [{ type: 'resource', uri: 'file:///src/a.ts', mediaType: 'text/plain', text: expect.stringContaining('contents of src/a.ts') }] },
    ]);
  });

  it('a missing required argument or an unknown prompt is a one-line MCP_ERROR, not a crash', async () => {
    const plugin = server();
    await harness.use(plugin);
    const missing = (await plugin.getPrompt('review', {}).then(
      () => new Error('resolved'),
      (error: unknown) => error as Error,
    )) as Error & { code?: string };
    expect(missing).toMatchObject({ code: 'MCP_ERROR' });
    expect(missing.message).not.toContain('\n');
    await expect(plugin.getPrompt('nope', {})).rejects.toMatchObject({ code: 'MCP_ERROR' });
    // The server is still there.
    expect((await plugin.getPrompt('greet', {})).messages).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'Hello there.' }] }]);
  });

  it('prompts/list_changed lists them again', async () => {
    const plugin = server();
    await harness.use(plugin);
    expect(await harness.executeToolCall({ id: 'add', name: 'srv__add_prompt', arguments: { name: 'standup' } })).toMatchObject({ ok: true });
    await until(() => plugin.prompts().some((prompt) => prompt.name === 'standup'));
    expect((await plugin.getPrompt('standup', {})).messages[0]!.parts).toEqual([{ type: 'text', text: 'This is standup.' }]);
  });
});
