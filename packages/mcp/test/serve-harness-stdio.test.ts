import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, NODE } from './servers.js';

// The served harness runs as its own process, started the way an MCP client starts a server.
describe('serveHarness over stdio, driven by the SDK client', () => {
  let client: Client;
  let elicited = 0;
  beforeAll(async () => {
    client = new Client({ name: 'stdio-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      elicited += 1;
      return { action: 'accept' };
    });
    await client.connect(
      new StdioClientTransport({
        command: NODE,
        args: ['--import', 'tsx', '--conditions=@weir/source', fixture('serve-stdio.ts')],
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists and calls the harness tools', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add', 'deploy']);
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })).toMatchObject({ content: [{ type: 'text', text: '42' }] });
  });

  it('asks for approval through elicitation', async () => {
    expect(await client.callTool({ name: 'deploy', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'deployed' }] });
    expect(elicited).toBe(1);
  });

  it('an invalid argument is an isError result', async () => {
    const result = await client.callTool({ name: 'add', arguments: { a: 'x', b: 1 } });
    expect(result.isError).toBe(true);
  });
});
