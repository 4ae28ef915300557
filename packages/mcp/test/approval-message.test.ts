import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHarness, definePlugin, defineTool, type Harness } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveHarness, type ServedHarness } from '../src/index.js';

const TOKEN = 'approval-token-0123456789abcdef012345678';
let ran = 0;
const tools = definePlugin({
  name: 'approval-tools',
  setup(ctx) {
    ctx.tools.register(defineTool({ name: 'write', description: 'Writes text.', tier: 'dangerous', parameters: { type: 'object', properties: { text: { type: 'string' } } }, execute: () => `wrote ${++ran}` }));
    ctx.guards.add((call) => (call.tier === 'dangerous' ? { decision: 'ask' } : undefined));
  },
});

let harness: Harness;
let served: ServedHarness | undefined;
let client: Client | undefined;
beforeEach(async () => {
  harness = createHarness();
  await harness.use(tools);
  ran = 0;
});
afterEach(async () => {
  await client?.close();
  await served?.close();
  await harness.close();
  served = undefined;
});

async function connect(answers: ('accept' | 'decline')[]): Promise<string[]> {
  served = await serveHarness(harness, { name: 'approvals', http: { port: 0, token: TOKEN } });
  const messages: string[] = [];
  client = new Client({ name: 'approval-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    messages.push(request.params.message);
    return { action: answers.shift() ?? 'decline' };
  });
  await client.connect(new StreamableHTTPClientTransport(served.url!, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return messages;
}

describe('the elicitation approval message', () => {
  it('shows bidi overrides and zero-width characters escaped, as the terminal prompt does', async () => {
    const messages = await connect(['accept']);
    await client!.callTool({ name: 'write', arguments: { text: 'invoice\u202Etxt.exe and\u200Bthis' } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).not.toMatch(/[\u202E\u200B]/);
    expect(messages[0]).toContain('invoice\\u202Etxt.exe and\\u200Bthis');
  });

  it('cut arguments say how much was cut; accepting shows them all, and only accepting that runs the call', async () => {
    const long = 'x'.repeat(10_000);
    const messages = await connect(['accept', 'decline', 'accept', 'accept']);
    const declined = await client!.callTool({ name: 'write', arguments: { text: long } });
    expect(declined.isError).toBe(true);
    expect(ran).toBe(0);
    expect(messages[0]).toMatch(/\(\d+ more characters not shown\)/);
    expect(messages[0]).toMatch(/Accept to show all/);
    expect(messages[1]).toContain(long);
    expect(await client!.callTool({ name: 'write', arguments: { text: long } })).toMatchObject({ content: [{ type: 'text', text: 'wrote 1' }] });
    expect(messages).toHaveLength(4);
  });
});
