/** The parts of an MCP tool listing this package reads. */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly outputSchema?: { readonly type: 'object'; readonly [key: string]: unknown };
  /** `required`: callable only through the protocol's task API (weir then runs it as a task, see run-tool-task.ts). */
  readonly execution?: { readonly taskSupport?: 'required' | 'optional' | 'forbidden' };
  readonly annotations?: {
    readonly title?: string;
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
}

/**
 * The description the model reads: the server's own, and its annotations as hints. They are
 * labelled as the server's claims: they inform the model, they never set the tier.
 */
export function describeTool(server: string, tool: McpToolInfo): string {
  const title = tool.title ?? tool.annotations?.title;
  const own = tool.description?.trim() || `The tool "${tool.name}" of the MCP server "${server}".`;
  const text = title !== undefined && !own.startsWith(title) ? `${title}: ${own}` : own;
  const hints = annotationHints(tool.annotations);
  return hints.length === 0 ? text : `${text}\n\n(Hints from the server, not verified: ${hints.join(', ')}.)`;
}

function annotationHints(annotations: McpToolInfo['annotations']): string[] {
  if (annotations === undefined) return [];
  const hints: string[] = [];
  if (annotations.readOnlyHint === true) hints.push('read-only');
  if (annotations.readOnlyHint !== true && annotations.destructiveHint === false) hints.push('not destructive');
  if (annotations.readOnlyHint !== true && annotations.destructiveHint === true) hints.push('destructive');
  if (annotations.idempotentHint === true) hints.push('idempotent');
  if (annotations.openWorldHint === true) hints.push('reaches outside systems');
  if (annotations.openWorldHint === false) hints.push('closed world');
  return hints;
}
