import type { Harness, ToolTier } from '@weir/core';

/** A weir tool as MCP's `tools/list` shows it. */
export interface McpToolListing {
  [key: string]: unknown;
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean };
}

/**
 * The harness's tools, in the model view (no `execute`), with their output schema where it is an
 * object schema (MCP takes no other), and the tier as MCP's hints: `read-only` is `readOnlyHint`,
 * `dangerous` is `destructiveHint`.
 */
export function harnessToolListing(harness: Harness): McpToolListing[] {
  return harness.tools.schemas().map((schema) => {
    const tool = harness.tools.get(schema.name);
    const output = tool?.outputSchema?.jsonSchema as { type?: unknown } | undefined;
    const listing: McpToolListing = {
      name: schema.name,
      description: schema.description,
      inputSchema: schema.parameters as McpToolListing['inputSchema'],
      annotations: tierHints(tool?.tier ?? 'dangerous'),
    };
    if (output !== undefined && output.type === 'object') listing.outputSchema = output as McpToolListing['outputSchema'];
    return listing;
  });
}

function tierHints(tier: ToolTier): McpToolListing['annotations'] {
  if (tier === 'read-only') return { readOnlyHint: true };
  return { readOnlyHint: false, destructiveHint: tier === 'dangerous' };
}
