import { defineTool, definePlugin, type Plugin, type ToolDefinition } from '@weir/core';

/** What a stand-in tool's body was called with, in order. */
export type Ran = { tool: string; args: Record<string, unknown> }[];

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
const str = { type: 'string' };

/**
 * Tools with the names and parameter schemas of weir's own (tools-shell's `run_command`, tools-fs's
 * file tools), an MCP server's `github__create_issue` and a plugin's `fetch_url`, whose bodies only
 * record that they ran: a case's `rm -rf ~/` must never run for real, whatever a hook decides.
 * `run_command` answers as tools-shell does, with the exit code `exitCode` gives.
 */
export function standInTools(ran: Ran, exitCode: () => number = () => 0, output: () => string = () => ''): Plugin {
  const tool = (name: string, parameters: Record<string, unknown>, tier: ToolDefinition['tier'], value?: () => unknown): ToolDefinition =>
    defineTool({
      name,
      description: `stand-in for ${name}`,
      tier,
      parameters: parameters as never,
      execute: (args: Record<string, unknown>) => {
        ran.push({ tool: name, args });
        return value === undefined ? `${name} ran` : value();
      },
    } as ToolDefinition);
  const tools = [
    tool('run_command', object({ command: { type: 'string', minLength: 1 }, cwd: str, timeoutMs: { type: 'integer', minimum: 1 } }, ['command']), 'dangerous', () => ({
      exitCode: exitCode(),
      signal: null,
      output: output(),
      truncated: false,
      elidedBytes: 0,
      outputBytes: 0,
      killed: null,
      durationMs: 1,
      sandboxed: true,
    })),
    tool('read_file', object({ path: str, offset: { type: 'integer' }, limit: { type: 'integer' } }, ['path']), 'read-only'),
    tool('write_file', object({ path: str, content: str }, ['path', 'content']), 'write'),
    tool('edit_file', object({ path: str, old_string: str, new_string: str, replace_all: { type: 'boolean' } }, ['path', 'old_string', 'new_string']), 'write'),
    tool('find_files', object({ pattern: str, path: str }, ['pattern']), 'read-only'),
    tool('search_files', object({ pattern: str, path: str, glob: str, ignore_case: { type: 'boolean' }, output_mode: { enum: ['content', 'files_with_matches', 'count'] }, context: { type: 'integer' }, limit: { type: 'integer' }, multiline: { type: 'boolean' } }, ['pattern']), 'read-only'),
    tool('fetch_url', object({ url: str }, ['url']), 'read-only'),
  ];
  const mcp = tool('github__create_issue', { type: 'object', properties: { title: str, body: str } }, 'dangerous');
  return definePlugin({
    name: 'stand-in-tools',
    setup(ctx) {
      for (const t of tools) ctx.tools.register(t);
      ctx.tools.register(mcp, { server: 'github' });
    },
  });
}

/** How the stand-in `fetch_url` looks to hooks: a plugin author's declared mapping. */
export const FETCH_URL_MAPPING = {
  fetch_url: { names: ['WebFetch'], toInput: (args: Readonly<Record<string, unknown>>) => ({ url: args.url }), fromInput: (input: Readonly<Record<string, unknown>>) => ({ url: input.url }) },
};
