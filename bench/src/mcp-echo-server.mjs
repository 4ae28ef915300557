#!/usr/bin/env node
// The MCP server of the MCP benchmark: one tool, echo, answered at once over stdio
// (newline-delimited JSON-RPC, no SDK), so the figures are the clients' cost, not the server's.
let buffer = '';
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('end', () => process.exit(0));
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let index;
  while ((index = buffer.indexOf('\n')) !== -1) {
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    if (line.trim() === '') continue;
    const { id, method, params } = JSON.parse(line);
    if (method === 'initialize') {
      send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench-echo', version: '1.0.0' } } });
    } else if (method === 'tools/list') {
      send({ jsonrpc: '2.0', id, result: { tools: [{ name: 'echo', description: 'Returns its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] } });
    } else if (method === 'tools/call') {
      send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: params.arguments.text }] } });
    } else if (id !== undefined && method !== undefined) {
      send({ jsonrpc: '2.0', id, result: {} });
    }
  }
});
