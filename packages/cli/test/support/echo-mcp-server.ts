// A tiny MCP server over stdio (newline-delimited JSON-RPC, no SDK), written into a sandbox for the
// config tests: `echo` returns its text, `shout` (left unmapped, so dangerous) returns it upper-cased.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = `let buffer = '';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
process.stdin.setEncoding('utf8');
process.stdin.on('end', () => process.exit(0));
const tool = (name, description) => ({ name, description, inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let index;
  while ((index = buffer.indexOf('\\n')) !== -1) {
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    if (line.trim() === '') continue;
    const { id, method, params } = JSON.parse(line);
    if (method === 'initialize') send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '1.0.0' } } });
    else if (method === 'tools/list') send({ jsonrpc: '2.0', id, result: { tools: [tool('echo', 'Returns its text.'), tool('shout', 'Returns its text in capitals.')] } });
    else if (method === 'tools/call') send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: params.name === 'shout' ? params.arguments.text.toUpperCase() : params.arguments.text }] } });
    else if (id !== undefined && method !== undefined) send({ jsonrpc: '2.0', id, result: {} });
  }
});
`;

/** Writes the server script into `dir`; returns its path. */
export function writeEchoServer(dir: string): string {
  const file = join(dir, 'echo-mcp-server.mjs');
  writeFileSync(file, SOURCE);
  return file;
}
