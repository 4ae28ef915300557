import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerSdk } from './load-sdk.js';
import type { McpPromptSource } from './mcp-prompt-source.js';
import type { McpResourceSource } from './mcp-resource-source.js';

/** MCP's cap on the values one completion answer holds. */
const MAX_VALUES = 100;

/**
 * Answers `completion/complete`: a prompt's argument from the prompt source, a resource template's
 * argument (a file path under the root, for `workspaceResources`) from the resource source. An
 * argument nothing completes gets no values, not an error.
 */
export function serveCompletion(server: Server, sdk: ServerSdk, sources: { readonly prompts?: McpPromptSource; readonly resources?: McpResourceSource }): void {
  server.setRequestHandler(sdk.CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const values =
      ref.type === 'ref/prompt'
        ? ((await sources.prompts?.complete?.(ref.name, argument.name, argument.value)) ?? [])
        : ((await sources.resources?.complete?.(ref.uri, argument.name, argument.value)) ?? []);
    const shown = values.slice(0, MAX_VALUES);
    return { completion: { values: shown, total: values.length, hasMore: values.length > shown.length } };
  });
}
