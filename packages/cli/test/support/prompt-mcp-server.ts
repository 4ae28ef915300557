// A tiny MCP server over stdio (newline-delimited JSON-RPC, no SDK) that offers prompts, written
// into a sandbox for the CLI's prompt tests: `review` {file (required), focus?} answers a text
// message and the file as an embedded resource; `brief` (no arguments) one text message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = `let buffer = '';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
process.stdin.setEncoding('utf8');
process.stdin.on('end', () => process.exit(0));
const prompts = [
  { name: 'review', description: 'Reviews a file.\\nSecond line, not shown.', arguments: [{ name: 'file', description: 'The file', required: true }, { name: 'focus', description: 'What to look at' }] },
  { name: 'brief', description: 'A short brief.' },
];
const get = (id, { name, arguments: args = {} }) => {
  if (name === 'brief') return send({ jsonrpc: '2.0', id, result: { messages: [{ role: 'user', content: { type: 'text', text: 'Write a two-line brief.' } }] } });
  if (name !== 'review') return send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Prompt ' + name + ' not found' } });
  if (typeof args.file !== 'string') return send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Missing required argument: file' } });
  const text = 'Please review ' + args.file + (args.focus === undefined ? '' : ', looking at ' + args.focus) + '.';
  send({ jsonrpc: '2.0', id, result: { description: 'A review', messages: [
    { role: 'user', content: { type: 'text', text } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'file:///' + args.file, mimeType: 'text/plain', text: 'PROMPT RESOURCE: contents of ' + args.file } } },
  ] } });
};
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let index;
  while ((index = buffer.indexOf('\\n')) !== -1) {
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    if (line.trim() === '') continue;
    const { id, method, params } = JSON.parse(line);
    if (method === 'initialize') send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {}, prompts: {} }, serverInfo: { name: 'docs', version: '1.0.0' } } });
    else if (method === 'tools/list') send({ jsonrpc: '2.0', id, result: { tools: [] } });
    else if (method === 'prompts/list') send({ jsonrpc: '2.0', id, result: { prompts } });
    else if (method === 'prompts/get') get(id, params);
    else if (id !== undefined && method !== undefined) send({ jsonrpc: '2.0', id, result: {} });
  }
});
`;

/** Writes the server script into `dir`; returns its path. */
export function writePromptServer(dir: string): string {
  const file = join(dir, 'prompt-mcp-server.mjs');
  writeFileSync(file, SOURCE);
  return file;
}
