export { mcpServer } from './mcp-server.js';
export type { McpServerPlugin } from './mcp-server.js';
export type { McpPrompt, McpPromptArgument, McpPromptMessage, McpPromptResult } from './mcp-prompts.js';
export type { McpHttpServerOptions, McpServerCommonOptions, McpServerOptions, McpStdioServerOptions } from './mcp-server-options.js';
export { McpServerError } from './mcp-server-error.js';
export type { McpOAuthOptions } from './oauth/oauth-options.js';
export type { McpServerErrorCode } from './mcp-server-error.js';
export type { McpPart } from './mcp-content.js';
export type { McpTierMap } from './resolve-tier.js';
export { mcpRoots } from './mcp-roots.js';
export type { McpRoot, McpRoots } from './mcp-roots.js';
export type { McpElicitAnswer, McpElicitation, McpElicitor } from './client-requests/answer-elicitation.js';
export type { FormField } from './client-requests/elicitation-form.js';
export type { McpSamplingOptions } from './client-requests/answer-sampling.js';

export { serveHarness, MAX_HTTP_SESSIONS } from './serve-harness.js';
export type { LoopbackHost, ServedHarness, ServeHarnessOptions } from './serve-harness.js';
export { workspaceResources } from './workspace-resources.js';
export type { WorkspaceResourcesOptions } from './workspace-resources.js';
export type { McpResource, McpResourceContents, McpResourceRefusal, McpResourceSource, McpResourceTemplate } from './mcp-resource-source.js';
export { mcpClientOf } from './mcp-client-of.js';
export type { McpClientRequests } from './mcp-client-of.js';
export { commandPrompts } from './command-prompts.js';
export type { CommandPromptsOptions, PromptCommand, PromptSkill } from './command-prompts.js';
export type { McpPromptSource, ServedPrompt, ServedPromptContent, ServedPromptMessage } from './mcp-prompt-source.js';

export { McpConfigError, parseMcpConfig, readMcpConfig } from './mcp-config.js';
