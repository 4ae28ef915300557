import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerSdk } from './load-sdk.js';
import type { McpPromptSource } from './mcp-prompt-source.js';

const INVALID_PARAMS = -32602;

/** Answers `prompts/list` and `prompts/get` from `source` for one session. */
export function servePrompts(server: Server, sdk: ServerSdk, source: McpPromptSource): void {
  server.setRequestHandler(sdk.ListPromptsRequestSchema, () => ({ prompts: source.list().map((prompt) => ({ ...prompt, arguments: prompt.arguments?.map((argument) => ({ ...argument })) })) }));
  server.setRequestHandler(sdk.GetPromptRequestSchema, async (request) => {
    const got = await source.get(request.params.name, request.params.arguments ?? {});
    // Both refusals are "invalid params" in MCP: an unknown prompt name is one.
    if (!got.ok) throw new sdk.McpError(INVALID_PARAMS, got.message);
    const messages = got.messages.map((message) => ({ role: message.role, content: { ...message.content } }));
    return got.description === undefined ? { messages } : { description: got.description, messages };
  });
}
