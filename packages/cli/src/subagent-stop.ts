import type { Plugin } from '@weir/core';
import type { HookEvents } from '@weir/hooks';

/**
 * The plugin that fires `SubagentStop` when a call of one of `agentNames` (the subagent tools of
 * the agent files) has finished, with the subagent's answer as `last_assistant_message` and its
 * name as `agent_type` (the call's id as `agent_id`), before the
 * parent goes on. A hook's block does not send the subagent on (its turn is over): it is logged,
 * and so is a failure; the result stands either way.
 */
export async function subagentStopPlugin(agentNames: readonly string[], events: Pick<HookEvents, 'subagentStop'>): Promise<Plugin> {
  const { definePlugin } = await import('@weir/core');
  const names = new Set(agentNames);
  return definePlugin({
    name: 'subagent-stop',
    setup(ctx) {
      ctx.hooks.postExecute.tapPromise(async (result, call) => {
        if (!names.has(call.toolName)) return undefined;
        const last = result.ok && typeof result.value === 'string' ? result.value : undefined;
        try {
          // The agent's name is its tool's: SubagentStop matchers select it, as Claude Code's do by agent_type.
          const outcome = await events.subagentStop(false, last, { type: call.toolName, id: call.callId });
          if (outcome.blocked) call.logger.warn({ tool: call.toolName, reason: outcome.reason }, 'a SubagentStop hook blocked; the subagent has finished, so its answer stands');
        } catch (error) {
          call.logger.warn({ err: error, tool: call.toolName }, 'SubagentStop hooks failed; the answer stands');
        }
        return undefined;
      });
    },
  });
}
