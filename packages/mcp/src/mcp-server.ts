import { definePlugin, type JsonSchema, type Plugin, type ToolDefinition } from '@weir/core';
import { describeTool, type McpToolInfo } from './describe-tool.js';
import { loadClientSdk } from './load-sdk.js';
import { McpServerLink } from './mcp-server-link.js';
import { renderToolValue } from './mcp-tool-value.js';
import { resolveServerOptions, type McpServerOptions } from './mcp-server-options.js';
import { McpToolSet } from './mcp-tool-set.js';
import { resolveTier } from './resolve-tier.js';
import { resourceTool } from './resource-tool.js';
import { ToolPins } from './tool-pins.js';

/**
 * An MCP server as a weir plugin named `mcp:<name>`: each of its tools becomes a weir tool
 * `<name>__<tool>` that goes through the whole pipeline (guards, approval, deadlines,
 * post-execute) like any other. Stdio servers (`command`) are started when the plugin loads, in a
 * process group of their own; HTTP servers (`url`) are reached over Streamable HTTP, or HTTP+SSE
 * for older servers. The SDK is loaded when the plugin loads, not when this package is imported.
 *
 * Throws a `TypeError` at once on bad options. `harness.use()` fails (`PLUGIN_SETUP_FAILED`, with an
 * `McpServerError` as the cause naming the server and its stderr tail) when the server does not
 * start, and nothing is left registered or running. Unloading closes the client and ends the
 * server's whole process group.
 */
export function mcpServer(options: McpServerOptions): Plugin {
  const resolved = resolveServerOptions(options);
  return definePlugin({
    name: `mcp:${resolved.name}`,
    async setup(ctx) {
      const sdk = await loadClientSdk();
      let link: McpServerLink | undefined;
      const pins = new ToolPins(resolved.name, ctx.logger);
      // A definition that changed since it was first seen asks again, whatever rule or grant allowed the old one.
      ctx.guards.add(`mcp:${resolved.name}`, (call) => {
        const change = pins.pending(call.toolName);
        if (change === undefined) return undefined;
        return { decision: 'ask', reason: `The MCP server "${resolved.name}" changed this tool's definition since it was approved; approving this call accepts the new version. The change:\n${change.diff}` };
      });
      const buildTool = (tool: McpToolInfo, weirName: string): ToolDefinition => {
        const version = pins.see(weirName, tool);
        return {
          name: weirName,
          description: describeTool(resolved.name, tool),
          parameters: tool.inputSchema as JsonSchema,
          tier: resolveTier(resolved.tiers, tool.name),
          ...(resolved.timeoutMs === undefined ? {} : { timeoutMs: resolved.timeoutMs }),
          output: {
            ...(tool.outputSchema === undefined ? {} : { schema: tool.outputSchema as JsonSchema }),
            render: renderToolValue,
          },
          execute: (args, exec) => {
            // The body runs only once every guard let the call through: an ask was approved.
            pins.accept(weirName, version);
            // "required": only as a task; "optional" is called directly (the server runs the task and answers).
            return link!.callTool(tool.name, args, exec, tool.execution?.taskSupport === 'required');
          },
        };
      };
      const tools = new McpToolSet(resolved.name, (tool) => ctx.tools.register(tool, { server: resolved.name }), buildTool, ctx.logger, () => link?.offersToolTasks === true);
      link = new McpServerLink(resolved, sdk, ctx.logger, (listed) => {
        try {
          tools.replace(listed);
        } catch (error) {
          ctx.logger.error({ err: error, server: resolved.name }, 'the new tool list could not be registered; the previous tools stay');
        }
      });
      // Registered before the start, so a failed start (or a later unload) ends what was started.
      ctx.onDispose(() => link.close());
      const listed = await link.start();
      tools.replace(listed);
      if (link.offersResources) {
        try {
          ctx.tools.register(resourceTool(resolved.name, link) as ToolDefinition, { server: resolved.name });
        } catch (error) {
          // A server tool of that name keeps it; its resources are then not offered.
          ctx.logger.warn({ err: error, server: resolved.name }, `the resources of the MCP server "${resolved.name}" are not offered: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      ctx.logger.debug({ server: resolved.name, tools: tools.names() }, 'MCP server ready');
    },
  });
}
