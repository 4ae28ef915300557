/** Separates the server's name from its tool's name: `github__create_issue`. */
export const NAMESPACE_SEPARATOR = '__';

const WEIR_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SERVER_NAME = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;

/**
 * True when `name` can prefix tool names: letters, digits, `-` and single `_`, so the `__`
 * separator is never ambiguous, and short enough to leave room for a tool name.
 */
export function isServerName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 32 && SERVER_NAME.test(name);
}

/**
 * The weir name of a server's tool, `<server>__<tool>`, or `undefined` when it cannot be one: MCP
 * allows characters and lengths weir's tool names do not (`.`, `/`, more than 64 characters).
 * Characters outside `[a-zA-Z0-9_-]` become `_`; the caller skips a name that is still too long
 * or that two tools would share.
 */
export function namespacedToolName(server: string, tool: string): string | undefined {
  const name = `${server}${NAMESPACE_SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return WEIR_TOOL_NAME.test(name) ? name : undefined;
}
