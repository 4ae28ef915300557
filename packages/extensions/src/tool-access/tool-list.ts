import { weirToolNames } from './claude-tool-names.js';

/** One entry of an `allowed-tools` or `tools` list: a tool, and for the shell a command pattern. */
export interface ToolRule {
  /** weir's tool name. */
  readonly tool: string;
  /** `Bash(git:*)`, `Bash(ls *)`: the command must start with this word(s); `Bash(npm test)`: be exactly it. */
  readonly command?: { readonly prefix: string } | { readonly exact: string };
  /** The entry as written, for messages. */
  readonly written: string;
}

/**
 * Reads a tool list as the formats write it: a YAML list, a comma-separated string (Claude Code's
 * files), or a space-separated one (the Agent Skills spec); spaces inside `Bash(...)` stay.
 * `undefined` and `null` are no list; anything else that is not a string or a list of strings
 * throws `Error` (one line).
 */
export function parseToolList(value: unknown, key: string): readonly ToolRule[] | undefined {
  if (value === undefined || value === null) return undefined;
  let entries: string[];
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === 'string')) throw new Error(`${key} must be a list of tool names`);
    entries = value.flatMap((item: string) => split(item));
  } else if (typeof value === 'string') {
    entries = split(value);
  } else {
    throw new Error(`${key} must be a string or a list of tool names, got ${typeof value}`);
  }
  return entries.flatMap(toRules);
}

/** Splits at commas and at spaces outside parentheses. */
function split(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' || (depth === 0 && /\s/.test(char))) {
      if (current.trim() !== '') out.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

function toRules(written: string): ToolRule[] {
  const match = /^([^()]+)\((.*)\)$/.exec(written);
  const name = match === null ? written : match[1]!.trim();
  const pattern = match?.[2]?.trim();
  return weirToolNames(name).map((tool) => {
    if (pattern === undefined || pattern === '' || pattern === '*' || tool !== 'run_command') return { tool, written };
    // `git:*` (Claude Code's older form) and `ls *` both mean "starts with the word(s) before".
    const prefix = /^(.*?)(?::\*|\s\*|\*)$/.exec(pattern);
    return prefix === null ? { tool, written, command: { exact: pattern } } : { tool, written, command: { prefix: prefix[1]!.trim() } };
  });
}

/**
 * True when a call to `toolName` with `args` is one of `rules`. A shell pattern is matched against
 * the `command` argument: a prefix must be followed by the end or a space, so `git` never lets
 * `gitx` through.
 */
export function permits(rules: readonly ToolRule[], toolName: string, args: Readonly<Record<string, unknown>>): boolean {
  return rules.some((rule) => {
    // `mcp__jira__*`: every tool of a server.
    if (rule.tool.endsWith('*') ? !toolName.startsWith(rule.tool.slice(0, -1)) : rule.tool !== toolName) return false;
    if (rule.command === undefined) return true;
    const command = typeof args.command === 'string' ? args.command.trim() : undefined;
    if (command === undefined) return false;
    if ('exact' in rule.command) return command === rule.command.exact;
    const { prefix } = rule.command;
    return command === prefix || command.startsWith(`${prefix} `);
  });
}
