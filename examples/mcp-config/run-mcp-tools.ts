// Loads MCP servers from a JSON config (the mcpServers shape Claude Desktop, Cursor and others use),
// puts a safety policy in front of their tools, lists them, and runs the calls given on the command
// line through the whole pipeline.
//
//   npx tsx --conditions=@weir/source examples/mcp-config/run-mcp-tools.ts [--config mcp.json] [tool '{"arg":1}']...
//
// The default config starts @modelcontextprotocol/server-filesystem with npx (it downloads it once).
import { createHarness } from '@weir/core';
import { mcpServer, readMcpConfig } from '@weir/mcp';
import { safety } from '@weir/safety';

const argv = process.argv.slice(2);
const configIndex = argv.indexOf('--config');
const configPath = configIndex === -1 ? new URL('./mcp.json', import.meta.url).pathname : argv[configIndex + 1]!;
const calls = (configIndex === -1 ? argv : argv.filter((_, i) => i !== configIndex && i !== configIndex + 1));

const harness = createHarness();
try {
  for (const server of await readMcpConfig(configPath)) await harness.use(mcpServer(server));
  // Read-only tools run, write tools run (mode auto), dangerous ones are denied here (no one to ask).
  await harness.use(safety({ mode: 'auto', rules: [{ deny: 'fs__move_file' }] }));
  console.log(`tools: ${harness.tools.names().join(', ')}`);
  for (let i = 0; i + 1 < calls.length; i += 2) {
    const result = await harness.executeToolCall({ id: `cli-${i}`, name: calls[i]!, arguments: calls[i + 1]! });
    console.log(`[${calls[i]}] ${result.ok ? 'ok' : `ERR ${result.error.code}`}: ${result.content}`);
  }
} catch (error) {
  console.error(error instanceof Error ? `${error.message}${error.cause instanceof Error ? `\n${error.cause.message}` : ''}` : String(error));
  process.exitCode = 1;
} finally {
  await harness.close();
}
