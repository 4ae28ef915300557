import { agentTool, definePlugin, type LanguageModel, type Plugin } from '@weir/core';
import type { AgentDefinition } from './agent-definition.js';

/** Most characters of an agent's description the parent model reads (some carry pages of examples). */
export const MAX_AGENT_DESCRIPTION_CHARS = 1024;

/** Options of `agentsPlugin`. */
export interface AgentsPluginOptions {
  readonly agents: readonly AgentDefinition[];
  /** The parent's model: every subagent runs on it unless `modelFor` gives another. */
  readonly model: LanguageModel;
  /** The model for an agent's `model` field; `undefined` keeps the parent's. */
  readonly modelFor?: (written: string) => LanguageModel | undefined;
}

/**
 * The plugin `agents`: each definition as core's `agentTool` named after the agent, so each
 * subagent turn runs on the caller's harness, under its guards, rules and approver. Its `tools`
 * (names the harness does not have are left out) are all it may call; its body is its system prompt.
 */
export function agentsPlugin(options: AgentsPluginOptions): Plugin {
  return definePlugin({
    name: 'agents',
    setup(ctx) {
      for (const agent of options.agents) {
        const model = (agent.model === undefined ? undefined : options.modelFor?.(agent.model)) ?? options.model;
        const tools = agent.tools;
        const description = agent.description.length > MAX_AGENT_DESCRIPTION_CHARS ? `${agent.description.slice(0, MAX_AGENT_DESCRIPTION_CHARS - 1)}…` : agent.description;
        ctx.tools.register(
          agentTool({
            name: agent.name,
            description,
            agent: {
              model,
              system: agent.system,
              ...(tools === undefined
                ? {}
                : {
                    tools,
                    // Only the listed tools the harness has: a name of another agent's (WebFetch) is dropped, not sent.
                    prepareStep: (step) => ({ tools: step.tools.map((tool) => tool.name).filter((name) => tools.includes(name)) }),
                  }),
            },
          }),
        );
      }
    },
  });
}
