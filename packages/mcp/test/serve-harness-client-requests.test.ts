import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHarness, definePlugin, defineTool, type Harness } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpClientOf, serveHarness, type ServedHarness } from '../src/index.js';

const TOKEN = 'client-requests-token-0123456789abcdef0123';

let harness: Harness;
let served: ServedHarness | undefined;
let client: Client | undefined;
beforeEach(async () => {
  harness = createHarness();
  await harness.use(
    definePlugin({
      name: 'asking-tools',
      setup(ctx) {
        ctx.tools.register(
          defineTool({
            name: 'ask_name',
            description: "Asks the client's user for a name, then its model for a greeting.",
            tier: 'read-only',
            parameters: { type: 'object' },
            execute: async (_args, exec) => {
              const mcp = mcpClientOf(exec);
              if (mcp === undefined) return 'no MCP client';
              if (!mcp.canElicit || !mcp.canSample) return `elicit ${mcp.canElicit}, sample ${mcp.canSample}`;
              const form = await mcp.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
              if (form.action !== 'accept') return `form ${form.action}`;
              const reply = await mcp.sample({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${String(form.content?.name)}` } }], maxTokens: 50 });
              return reply.content.type === 'text' ? reply.content.text : 'not text';
            },
          }),
        );
      },
    }),
  );
});
afterEach(async () => {
  await client?.close();
  await served?.close();
  await harness.close();
  client = served = undefined;
});

async function connect(capabilities: Record<string, object>): Promise<Client> {
  served = await serveHarness(harness, { name: 'asking', http: { port: 0, token: TOKEN } });
  client = new Client({ name: 'asked-client', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(served.url!, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

describe('mcpClientOf: a tool body asks the client that called it', () => {
  it('elicits a form from the client and samples its model, within the call', async () => {
    const mcp = await connect({ elicitation: {}, sampling: {} });
    const asked: string[] = [];
    mcp.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(`elicit: ${request.params.message}`);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    mcp.setRequestHandler(CreateMessageRequestSchema, (request) => {
      const first = request.params.messages[0]!.content;
      asked.push(`sample: ${'text' in first ? first.text : ''}`);
      return { role: 'assistant', content: { type: 'text', text: 'Hello, Ada.' }, model: 'client-model' };
    });
    expect(await mcp.callTool({ name: 'ask_name', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada.' }] });
    expect(asked).toEqual(['elicit: Your name?', 'sample: Greet Ada']);
  });

  it('a client that offers neither is seen to offer neither; a call from the harness itself has no MCP client', async () => {
    const mcp = await connect({});
    expect(await mcp.callTool({ name: 'ask_name', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'elicit false, sample false' }] });
    const own = await harness.executeToolCall({ id: 'own-1', name: 'ask_name', arguments: {} });
    expect(own).toMatchObject({ ok: true, content: 'no MCP client' });
  });
});
