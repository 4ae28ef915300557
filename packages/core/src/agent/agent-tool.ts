import { defineTool, type ToolDefinition } from '../tools/define-tool.js';
import { ToolCallError } from '../tools/tool-result.js';
import type { AgentEvent } from './agent-event.js';
import { createAgent, type AgentOptions } from './create-agent.js';
import type { PrepareStep } from './prepare-step.js';
import { PARENT_LINK, scopeOf, type ParentLink } from './turn-scope.js';

/** The child of a subagent tool: an agent's options without the harness (it runs on the caller's). */
export type SubagentOptions = Omit<AgentOptions, 'harness' | 'session' | 'signal'> & {
  /** Tools the child may use, by name. Default: every tool of the harness but this one. */
  readonly tools?: readonly string[];
};

/** Options of `agentTool`. */
export interface AgentToolOptions {
  readonly name: string;
  /** What the parent model reads to decide when to delegate. */
  readonly description: string;
  readonly agent: SubagentOptions;
  /** The whole child turn's deadline. Default: the harness's tool deadline. */
  readonly timeoutMs?: number;
}

/**
 * An agent as a tool of another. Each call runs a fresh child turn on the harness of the calling
 * turn, so the child's calls pass that harness's guards and approver (each write call asks once;
 * the subagent tool itself is `read-only`: it does nothing but delegate); the call's signal (the
 * parent's abort) aborts the child; the child's model calls are charged to the parent's budget
 * too; its events reach the parent's listener as `subagent` events under the call; its history is
 * its own and only its final text comes back as the result. Called outside an agent turn, it fails
 * `NO_PARENT_TURN`.
 */
export function agentTool(options: AgentToolOptions): ToolDefinition<{ readonly task: string }> {
  const { name, description, agent: spec } = options;
  if (typeof spec !== 'object' || spec === null || typeof spec.model?.complete !== 'function') throw new TypeError('agentTool: agent must hold the child\'s options, a model at least.');
  if (spec.tools !== undefined && !(Array.isArray(spec.tools) && spec.tools.every((tool) => typeof tool === 'string'))) throw new TypeError('agentTool: agent.tools must be an array of tool names.');
  return defineTool({
    name,
    description,
    tier: 'read-only',
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    parameters: {
      type: 'object',
      properties: { task: { type: 'string', minLength: 1, description: 'The task for the subagent, with everything it needs to know: it does not see this conversation.' } },
      required: ['task'],
      additionalProperties: false,
    },
    execute: async ({ task }, exec) => {
      const scope = scopeOf(exec.run);
      if (scope === undefined) throw new ToolCallError('NO_PARENT_TURN', `${name} runs only as a tool of an agent turn (agent.turn), not on its own.`);
      const link: ParentLink = { budget: scope.budget, callKey: exec.callKey };
      const { tools, ...childOptions } = spec;
      const child = createAgent({ ...childOptions, harness: scope.harness, prepareStep: restrictTools(name, tools, spec.prepareStep), [PARENT_LINK]: link } as AgentOptions);
      const emit = scope.emit;
      const result = await child.turn(task, {
        signal: exec.signal,
        ...(emit === undefined ? {} : { onEvent: (event: AgentEvent) => emit({ type: 'subagent', callId: exec.callId, toolName: name, event }) }),
      });
      if (result.stopReason === 'stop') return result.text;
      const why = result.stopReason === 'budget_exhausted' ? `budget_exhausted: ${result.budget}` : result.stopReason;
      return `${result.text === '' ? '(no answer)' : result.text}\n\n[the subagent stopped early: ${why}]`;
    },
  });
}

/** The child's tools: those named, or every tool but the subagent itself; then the child's own choice within them. */
function restrictTools(self: string, allowed: readonly string[] | undefined, inner: PrepareStep | undefined): PrepareStep {
  return async (preparation) => {
    const plan = await inner?.(preparation);
    const base = allowed ?? preparation.tools.map((tool) => tool.name).filter((tool) => tool !== self);
    const tools = plan?.tools === undefined ? base : plan.tools.filter((tool) => base.includes(tool));
    return plan?.model === undefined ? { tools } : { tools, model: plan.model };
  };
}
