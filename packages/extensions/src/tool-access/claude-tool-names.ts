/**
 * Claude Code's tool names (what `allowed-tools` and an agent's `tools` name) as weir's. A weir
 * name is taken as it is too; `mcp__<server>__<tool>` is weir's `<server>__<tool>`.
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  Bash: ['run_command'],
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Glob: ['find_files'],
  Grep: ['search_files'],
  LS: ['list_dir'],
});

/** The weir tool names one written name stands for: itself, its Claude Code mapping, or an MCP tool's. */
export function weirToolNames(name: string): readonly string[] {
  if (Object.hasOwn(CLAUDE_TOOL_NAMES, name)) return CLAUDE_TOOL_NAMES[name]!;
  if (name.startsWith('mcp__')) return [name.slice('mcp__'.length)];
  return [name];
}
