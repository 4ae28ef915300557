import type { Content, ContentPart } from '@weir/core';
import type { McpPrompt, McpServerPlugin } from '@weir/mcp';
import { oneLineError } from './one-line-error.js';

/** What every MCP prompt's slash command starts with: `/mcp__<server>__<prompt>`. */
export const MCP_PROMPT_PREFIX = '/mcp__';

/** One server prompt as a slash command. */
export interface McpPromptCommand {
  /** `/mcp__<server>__<prompt>`, the prompt's name with each character other than letters, digits, `_`, `-` and `.` as `_`. */
  readonly command: string;
  readonly server: McpServerPlugin;
  readonly prompt: McpPrompt;
}

/** What a line is, seen as an MCP prompt command. */
export type McpPromptLine =
  | { readonly kind: 'none' }
  | { readonly kind: 'turn'; readonly content: Content; readonly command: string }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The prompts of the loaded servers as slash commands, in load order and the servers' order. A
 * name that comes twice once made legal (`a b` and `a_b`) keeps its first prompt.
 */
export function mcpPromptCommands(servers: readonly McpServerPlugin[]): McpPromptCommand[] {
  const commands = new Map<string, McpPromptCommand>();
  for (const server of servers) {
    for (const prompt of server.prompts()) {
      const command = `${MCP_PROMPT_PREFIX}${server.server}__${prompt.name.replace(/[^\w.-]/g, '_')}`;
      if (!commands.has(command)) commands.set(command, { command, server, prompt });
    }
  }
  return [...commands.values()];
}

/** `/mcp__srv__review <file> [focus]`: the command with its arguments, required ones in angle brackets. */
export function promptUsage(command: McpPromptCommand): string {
  return [command.command, ...command.prompt.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`))].join(' ');
}

/**
 * The values of a prompt's arguments from the text after the command: `name=value` sets the
 * argument of that name, any other word fills the next argument not yet set, in the server's order;
 * a value with spaces is quoted (`"..."` or `'...'`, also after `name=`). Every required argument
 * must end with a value. The error is one line naming the command's usage.
 */
export function parsePromptArguments(command: McpPromptCommand, text: string): { readonly ok: true; readonly args: Record<string, string> } | { readonly ok: false; readonly error: string } {
  const declared = command.prompt.arguments;
  const names = new Set(declared.map((arg) => arg.name));
  // A Map: an argument may be called "constructor" or "__proto__".
  const args = new Map<string, string>();
  const positional: string[] = [];
  const usage = `usage: ${promptUsage(command)}`;
  for (const match of text.matchAll(/([A-Za-z_][\w.-]*)=(?:"([^"]*)"|'([^']*)'|(\S*))|"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const key = match[1];
    if (key !== undefined && names.has(key)) {
      if (args.has(key)) return { ok: false, error: `${command.command}: the argument "${key}" is given twice (${usage})` };
      args.set(key, match[2] ?? match[3] ?? match[4] ?? '');
    } else positional.push(key !== undefined ? match[0] : (match[5] ?? match[6] ?? match[7] ?? ''));
  }
  for (const value of positional) {
    const next = declared.find((arg) => !args.has(arg.name));
    if (next === undefined) return { ok: false, error: `${command.command}: too many arguments: ${JSON.stringify(value)} has no argument left to fill (${usage})` };
    args.set(next.name, value);
  }
  const missing = declared.filter((arg) => arg.required && !args.get(arg.name)).map((arg) => arg.name);
  if (missing.length > 0) return { ok: false, error: `${command.command}: missing the required argument${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')} (${usage})` };
  return { ok: true, args: Object.fromEntries(args) };
}

/**
 * Reads a line as an MCP prompt command: `none` when it does not start with `/mcp__`; `error` (one
 * line) for an unknown prompt, bad arguments or a server that refused; else the prompt's messages
 * as one user turn: their parts in order (text, images, embedded resources), a message the prompt
 * gives as the assistant's marked as such in a text part before it; all-text prompts become one
 * string, the texts joined by blank lines. Never rejects.
 */
export async function mcpPromptLine(servers: readonly McpServerPlugin[], line: string): Promise<McpPromptLine> {
  const trimmed = line.trim();
  if (!trimmed.startsWith(MCP_PROMPT_PREFIX)) return { kind: 'none' };
  const name = trimmed.split(/\s/, 1)[0]!;
  const commands = mcpPromptCommands(servers);
  const command = commands.find((candidate) => candidate.command === name);
  if (command === undefined) {
    const known = commands.map((candidate) => candidate.command);
    return { kind: 'error', message: `${name} is not a prompt of a loaded MCP server; ${known.length === 0 ? 'no server offers prompts' : `the prompts: ${known.join(', ')}`}.` };
  }
  const parsed = parsePromptArguments(command, trimmed.slice(name.length));
  if (!parsed.ok) return { kind: 'error', message: parsed.error };
  let result;
  try {
    result = await command.server.getPrompt(command.prompt.name, parsed.args);
  } catch (error) {
    return { kind: 'error', message: `${command.command}: ${oneLineError(error)}` };
  }
  const parts: ContentPart[] = [];
  for (const message of result.messages) {
    if (message.role === 'assistant') parts.push({ type: 'text', text: `[The prompt ${command.command} gives this as the assistant's words:]` });
    parts.push(...message.parts);
  }
  if (parts.length === 0) return { kind: 'error', message: `${command.command}: the MCP server "${command.server.server}" sent the prompt without any message.` };
  const content: Content = parts.every((part) => part.type === 'text') ? parts.map((part) => (part as { text: string }).text).join('\n\n') : parts;
  return { kind: 'turn', content, command: command.command };
}
