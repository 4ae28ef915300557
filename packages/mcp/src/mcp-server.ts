import { definePlugin, namespacedName, ToolCallError, type JsonSchema, type Plugin, type ToolDefinition } from '@weir/core';
import { McpPromptList } from './mcp-prompt-list.js';
import { readPromptResult, type McpPrompt, type McpPromptResult } from './mcp-prompts.js';
import { describeTool, type McpToolInfo } from './describe-tool.js';
import { loadClientSdk } from './load-sdk.js';
import { McpServerLink } from './mcp-server-link.js';
import { renderToolValue } from './mcp-tool-value.js';
import { resolveServerOptions, type McpServerOptions } from './mcp-server-options.js';
import { McpToolSet } from './mcp-tool-set.js';
import { resolveTier } from './resolve-tier.js';
import { RESOURCE_TOOL, resourceTool } from './resource-tool.js';
import { ResourceUpdates } from './resource-updates.js';
import { ToolPins } from './tool-pins.js';

/** The plugin `mcpServer` makes: a plugin, and the server's prompts once it is loaded. */
export interface McpServerPlugin extends Plugin {
  /** The server's name (the tools' namespace). */
  readonly server: string;
  /**
   * The prompts the server offers, as last listed (at load, again after
   * `notifications/prompts/list_changed` or a restart); empty while the plugin is not loaded or
   * the server offers none. Never throws.
   */
  prompts(): readonly McpPrompt[];
  /**
   * Fetches one prompt with its arguments (`prompts/get`), its messages as the core's content
   * parts. Rejects with an error whose message is one line (a `ToolCallError`: `MCP_ERROR` when the
   * server refuses, `MCP_SERVER_UNAVAILABLE` when it is gone or the plugin is not loaded).
   */
  getPrompt(name: string, args: Readonly<Record<string, string>>, options?: { readonly signal?: AbortSignal }): Promise<McpPromptResult>;
}

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
export function mcpServer(options: McpServerOptions): McpServerPlugin {
  const resolved = resolveServerOptions(options);
  // The loaded state the prompts are read from; undefined until setup and after unload.
  let loaded: { readonly link: McpServerLink; readonly prompts: McpPromptList } | undefined;
  const plugin = definePlugin({
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
      const prompts = new McpPromptList(resolved.name, ctx.logger, () => link!.listPrompts());
      link = new McpServerLink(
        resolved,
        sdk,
        ctx.logger,
        (listed) => {
          try {
            tools.replace(listed);
          } catch (error) {
            ctx.logger.error({ err: error, server: resolved.name }, 'the new tool list could not be registered; the previous tools stay');
          }
        },
        () => void (link!.offersPrompts ? prompts.refresh() : prompts.clear()),
        // The server's elicitations and sampling requests are asked of the harness's approver.
        (request, signal) => ctx.approval.request(request, { signal }),
      );
      // Registered before the start, so a failed start (or a later unload) ends what was started.
      ctx.onDispose(async () => {
        loaded = undefined;
        prompts.clear();
        await link!.close();
      });
      const listed = await link.start();
      tools.replace(listed);
      if (link.offersPrompts) await prompts.refresh();
      loaded = { link, prompts };
      if (link.offersResources) {
        try {
          const updates = new ResourceUpdates(resolved.name, namespacedName(resolved.name, RESOURCE_TOOL));
          ctx.tools.register(resourceTool(resolved.name, link, updates) as ToolDefinition, { server: resolved.name });
          link.resourceUpdates = updates;
          // A change the server announced is told beside the next tool result; nothing pending, nothing built.
          ctx.hooks.postExecute.tap(() => {
            const note = updates.take();
            return note === undefined ? undefined : { action: 'addContext', text: note };
          });
        } catch (error) {
          // A server tool of that name keeps it; its resources are then not offered.
          ctx.logger.warn({ err: error, server: resolved.name }, `the resources of the MCP server "${resolved.name}" are not offered: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      ctx.logger.debug({ server: resolved.name, tools: tools.names(), prompts: prompts.current().length }, 'MCP server ready');
    },
  });
  return Object.freeze({
    ...plugin,
    server: resolved.name,
    prompts: () => loaded?.prompts.current() ?? [],
    async getPrompt(name: string, args: Readonly<Record<string, string>>, getOptions: { readonly signal?: AbortSignal } = {}): Promise<McpPromptResult> {
      const current = loaded;
      if (current === undefined) throw new ToolCallError('MCP_SERVER_UNAVAILABLE', `The MCP server "${resolved.name}" is not loaded.`);
      const signal = getOptions.signal;
      const result = await current.link.request('prompts/get', { name, arguments: { ...args } }, signal === undefined ? undefined : { signal });
      return readPromptResult(result);
    },
  });
}
