import { definePlugin, type Plugin, type ToolTier } from '@weir/core';
import { weirTool, type AiSdkToolLike } from './weir-tool.js';

export interface FromAiSdkToolsOptions {
  /** The plugin's name. Default `'ai-sdk-tools'`. */
  readonly name?: string;
  /** The tier of every tool, or per tool name. Default: weir's `'dangerous'` for each. */
  readonly tier?: ToolTier | Readonly<Record<string, ToolTier>>;
  /** Where the tools come from, for policies keyed on `source.server` (a package name, say). */
  readonly server?: string;
}

/**
 * An AI SDK `ToolSet` as a weir plugin: each entry registered with `weirTool` under its key, so tool
 * packages written for the AI SDK load into a harness with `harness.use(fromAiSdkTools(tools))`.
 * Throws a one-line `TypeError` at once (not at load) for an entry weir cannot run.
 */
export function fromAiSdkTools(toolSet: Readonly<Record<string, AiSdkToolLike>>, options: FromAiSdkToolsOptions = {}): Plugin {
  if (typeof toolSet !== 'object' || toolSet === null) throw new TypeError(`fromAiSdkTools: expected an AI SDK ToolSet (an object of tools), got ${toolSet === null ? 'null' : typeof toolSet}.`);
  const { tier, server } = options;
  const definitions = Object.entries(toolSet).map(([name, tool]) => weirTool(tool, { name, ...tierFor(tier, name) }));
  return definePlugin({
    name: options.name ?? 'ai-sdk-tools',
    setup: (ctx) => {
      for (const definition of definitions) ctx.tools.register(definition, server === undefined ? {} : { server });
    },
  });
}

function tierFor(tier: FromAiSdkToolsOptions['tier'], name: string): { tier?: ToolTier } {
  if (tier === undefined) return {};
  if (typeof tier === 'string') return { tier };
  const own = tier[name];
  return own === undefined ? {} : { tier: own };
}
