import { expect, it } from 'vitest';
import { clientMcpServers } from './client-mcp-servers.js';

it('maps stdio and HTTP servers to @weir/mcp options with weir server names', () => {
  expect(
    clientMcpServers([
      { name: 'file system', command: 'npx', args: ['-y', 'fs'], env: [{ name: 'TOKEN', value: 't' }] },
      { type: 'http', name: 'file system', url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'authorization', value: 'Bearer x' }] },
    ]),
  ).toEqual([
    { name: 'file-system', command: 'npx', args: ['-y', 'fs'], env: { TOKEN: 't' } },
    { name: 'file-system-2', url: 'http://127.0.0.1:1/mcp', headers: { authorization: 'Bearer x' } },
  ]);
});

it('refuses an SSE server in one line naming it', () => {
  expect(() => clientMcpServers([{ type: 'sse', name: 'old', url: 'http://127.0.0.1:1/sse', headers: [] }])).toThrow(/^The MCP server "old" is an SSE server; weir takes stdio and HTTP servers\.$/);
});
