import type { McpServer } from '@agentclientprotocol/sdk';
import type { AcpMcpServer } from './acp-host.js';

/**
 * The MCP servers a client passed with `session/new` or `session/load`, as `@weir/mcp` options. A
 * server name becomes a weir one (letters, digits, `-` and single `_`, at most 30), since it
 * prefixes every tool of the server; SSE servers are refused (weir offers HTTP and stdio, and says
 * so in `initialize`). Throws a one-line `Error` naming the server it cannot take.
 */
export function clientMcpServers(servers: readonly McpServer[]): AcpMcpServer[] {
  const taken = new Set<string>();
  return servers.map((server) => {
    const name = uniqueName(weirServerName(server.name), taken);
    if ('type' in server && server.type === 'sse') throw new Error(`The MCP server "${server.name}" is an SSE server; weir takes stdio and HTTP servers.`);
    if ('type' in server && server.type === 'http') {
      return { name, url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) };
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    return { name, command: stdio.command, args: [...stdio.args], env: Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value])) };
  });
}

function weirServerName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 30);
  return cleaned === '' ? 'client' : cleaned;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${name.slice(0, 27)}-${n}`;
  taken.add(candidate);
  return candidate;
}
