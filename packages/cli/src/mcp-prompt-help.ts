import type { McpServerPlugin } from '@weir/mcp';
import { mcpPromptCommands, promptUsage } from './mcp-prompt-command.js';

/** Longest description `/help` shows of a server's prompt: the server's text, not weir's. */
const MAX_DESCRIPTION = 100;

/**
 * `/help`'s lines for the MCP servers' prompts: usage, the first line of the description (escaped
 * for the terminal and cut: a server's text is untrusted), and the server.
 */
export async function mcpPromptHelp(servers: readonly McpServerPlugin[]): Promise<string[]> {
  const commands = mcpPromptCommands(servers);
  if (commands.length === 0) return [];
  const { escapeForTerminal } = await import('@weir/safety');
  return commands.map((command) => {
    const about = (command.prompt.description ?? command.prompt.title ?? '').split('\n', 1)[0]!.trim();
    const short = about.length > MAX_DESCRIPTION ? `${about.slice(0, MAX_DESCRIPTION - 1)}…` : about;
    return escapeForTerminal(`  ${promptUsage(command).padEnd(13)} ${short === '' ? '' : `${short} `}(MCP server ${command.server.server})`);
  });
}
