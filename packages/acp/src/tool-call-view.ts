import { isAbsolute, join } from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** How the editor shows one weir tool call: its kind (the icon), a title and the files it touches. */
export interface ToolCallView {
  readonly kind: ToolKind;
  readonly title: string;
  readonly locations: ToolCallLocation[];
  /** The file an edit changes, absolute: its text before and after becomes a diff. */
  readonly edits: string | undefined;
}

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  list_dir: 'read',
  find_files: 'search',
  search_files: 'search',
  write_file: 'edit',
  edit_file: 'edit',
  run_command: 'execute',
};

/**
 * The view of a call of `toolName` with `args` in the workspace `cwd`: tools-fs and shell tools by
 * name, anything else (an MCP server's, a plugin's) `other` titled by its name. Paths in ACP are
 * absolute, so a workspace-relative `path` argument is joined to `cwd`. Never throws.
 */
export function toolCallView(toolName: string, args: unknown, cwd: string): ToolCallView {
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const given = [record.path, record.file_path].find((value): value is string => typeof value === 'string' && value !== '');
  const path = given === undefined ? undefined : isAbsolute(given) ? given : join(cwd, given);
  const kind = KINDS[toolName] ?? 'other';
  const line = typeof record.offset === 'number' ? record.offset : undefined;
  const command = typeof record.command === 'string' ? record.command : undefined;
  const title = command !== undefined && kind === 'execute' ? `${toolName}: ${command.slice(0, 80)}` : given !== undefined ? `${toolName} ${given}` : toolName;
  return {
    kind,
    title,
    locations: path === undefined ? [] : [{ path, ...(line === undefined ? {} : { line }) }],
    edits: kind === 'edit' ? path : undefined,
  };
}

/** A tool call's arguments as an object: the raw JSON string a model sent is parsed, or kept as it is. */
export function callArguments(args: string | Readonly<Record<string, unknown>>): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
