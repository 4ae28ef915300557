import { isAbsolute, relative, resolve, sep } from 'node:path';

/** What a mapping is given besides the arguments: the project folder relative paths are taken from. */
export interface MappingContext {
  readonly projectDir: string;
}

/**
 * How one weir tool looks to hooks written for another agent: the names a matcher may use (the
 * first is sent as `tool_name`), and its arguments in that agent's shape both ways. A plugin author
 * declares one for a tool of their own and passes it in `commandHooks({ tools })`.
 */
export interface HookToolMapping {
  /** Claude Code's (and Codex's) names, the first sent as `tool_name`: `['Bash']`. */
  readonly names: readonly string[];
  /** Gemini CLI's name, sent to hooks of Gemini's events. */
  readonly geminiName?: string;
  /** weir's arguments as `tool_input`. Default: unchanged. */
  toInput?(args: Readonly<Record<string, unknown>>, context: MappingContext): Record<string, unknown>;
  /** A hook's `updatedInput` (merged over `toInput`'s result) back into weir's arguments. Default: unchanged. */
  fromInput?(input: Readonly<Record<string, unknown>>, context: MappingContext): Record<string, unknown>;
}

const absolute = (path: unknown, context: MappingContext) => (typeof path === 'string' ? resolve(context.projectDir, path) : path);
/** A path a hook sends back, relative to the project when it lies inside it (weir's file tools take those). */
const projectRelative = (path: unknown, context: MappingContext) => {
  if (typeof path !== 'string' || !isAbsolute(path)) return path;
  const inside = relative(context.projectDir, path);
  return inside === '' ? '.' : inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside) ? path : inside;
};
/** Copies `from[a]` to `to[b]` for each `[a, b]`, only where present. */
function rename(from: Readonly<Record<string, unknown>>, pairs: readonly (readonly [string, string, ((v: unknown) => unknown)?])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [a, b, map] of pairs) if (from[a] !== undefined) out[b] = map === undefined ? from[a] : map(from[a]);
  return out;
}

/** weir's own tools, as Claude Code's hooks know them (their names and the input shapes they read). */
export const BUILTIN_TOOL_MAPPINGS: Readonly<Record<string, HookToolMapping>> = Object.freeze({
  run_command: {
    names: ['Bash'],
    geminiName: 'run_shell_command',
    toInput: (args) => rename(args, [['command', 'command'], ['timeoutMs', 'timeout'], ['cwd', 'cwd']]),
    fromInput: (input) => rename(input, [['command', 'command'], ['timeout', 'timeoutMs'], ['cwd', 'cwd']]),
  },
  read_file: {
    names: ['Read'],
    geminiName: 'read_file',
    toInput: (args, c) => rename(args, [['path', 'file_path', (p) => absolute(p, c)], ['offset', 'offset'], ['limit', 'limit']]),
    fromInput: (input, c) => rename(input, [['file_path', 'path', (p) => projectRelative(p, c)], ['offset', 'offset'], ['limit', 'limit']]),
  },
  write_file: {
    names: ['Write'],
    geminiName: 'write_file',
    toInput: (args, c) => rename(args, [['path', 'file_path', (p) => absolute(p, c)], ['content', 'content']]),
    fromInput: (input, c) => rename(input, [['file_path', 'path', (p) => projectRelative(p, c)], ['content', 'content']]),
  },
  edit_file: {
    // weir's edit_file is one replacement; a MultiEdit matcher is meant for it too.
    names: ['Edit', 'MultiEdit'],
    geminiName: 'replace',
    toInput: (args, c) => rename(args, [['path', 'file_path', (p) => absolute(p, c)], ['old_string', 'old_string'], ['new_string', 'new_string'], ['replace_all', 'replace_all']]),
    fromInput: (input, c) => rename(input, [['file_path', 'path', (p) => projectRelative(p, c)], ['old_string', 'old_string'], ['new_string', 'new_string'], ['replace_all', 'replace_all']]),
  },
  find_files: {
    names: ['Glob'],
    geminiName: 'glob',
    toInput: (args, c) => rename(args, [['pattern', 'pattern'], ['path', 'path', (p) => absolute(p, c)]]),
    fromInput: (input, c) => rename(input, [['pattern', 'pattern'], ['path', 'path', (p) => projectRelative(p, c)]]),
  },
  search_files: {
    names: ['Grep'],
    geminiName: 'search_file_content',
    toInput: (args, c) =>
      rename(args, [['pattern', 'pattern'], ['path', 'path', (p) => absolute(p, c)], ['glob', 'glob'], ['ignore_case', '-i'], ['output_mode', 'output_mode'], ['context', '-C'], ['multiline', 'multiline'], ['limit', 'head_limit']]),
    fromInput: (input, c) =>
      rename(input, [['pattern', 'pattern'], ['path', 'path', (p) => projectRelative(p, c)], ['glob', 'glob'], ['-i', 'ignore_case'], ['output_mode', 'output_mode'], ['-C', 'context'], ['multiline', 'multiline'], ['head_limit', 'limit']]),
  },
  list_dir: {
    names: ['LS'],
    geminiName: 'list_directory',
    toInput: (args, c) => ({ path: absolute(args.path ?? '.', c) }),
    fromInput: (input, c) => rename(input, [['path', 'path', (p) => projectRelative(p, c)]]),
  },
});

/** How a tool shows to hooks: its names, `tool_name`, and both directions of its input. */
export interface ToolView {
  /** Every name a matcher may use for it (weir's own first). */
  readonly names: readonly string[];
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** `updatedInput` (merged over `input`) as weir's arguments. */
  back(updatedInput: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/**
 * A weir tool as a hook of `dialect` sees it. A tool an MCP server brought (`source.server`) is
 * `mcp__<server>__<tool>` to Claude Code's hooks, with its arguments as they are.
 */
export function toolView(
  weirName: string,
  server: string | undefined,
  args: Readonly<Record<string, unknown>>,
  dialect: 'claude' | 'gemini',
  mappings: Readonly<Record<string, HookToolMapping>>,
  context: MappingContext,
): ToolView {
  const mapping = Object.hasOwn(mappings, weirName) ? mappings[weirName] : Object.hasOwn(BUILTIN_TOOL_MAPPINGS, weirName) ? BUILTIN_TOOL_MAPPINGS[weirName] : undefined;
  if (mapping === undefined) {
    const mcpName = server !== undefined && weirName.startsWith(`${server}__`) ? `mcp__${weirName}` : undefined;
    const names = mcpName === undefined ? [weirName] : [weirName, mcpName];
    return { names, toolName: dialect === 'claude' && mcpName !== undefined ? mcpName : weirName, input: { ...args }, back: (input) => ({ ...args, ...input }) };
  }
  const input = mapping.toInput === undefined ? { ...args } : mapping.toInput(args, context);
  const names = [weirName, ...mapping.names, ...(mapping.geminiName === undefined ? [] : [mapping.geminiName])];
  const toolName = dialect === 'gemini' ? (mapping.geminiName ?? weirName) : (mapping.names[0] ?? weirName);
  return {
    names,
    toolName,
    input,
    // Merged, not replaced: published hooks send a partial updatedInput (only `content`) and mean
    // "change this"; what comes out is validated against the tool's schema again.
    back: (updated) => {
      const merged = { ...input, ...updated };
      return mapping.fromInput === undefined ? merged : mapping.fromInput(merged, context);
    },
  };
}
