import { createAgent, createHarness, defineTool, type Agent, type LanguageModel, type ModelResponse } from '@weir/core';
import { ECHO_ARGUMENTS, FINAL_TEXT, type StepPlan } from './peers/step-plan.js';

/**
 * weir's side of the agent-step benchmark: the turn the peers run (K `echo` tool steps, then a text
 * answer), on createAgent with the harness's defaults (120 s per-call deadline, concurrency 8, the
 * six stages with no taps). The model is a LanguageModel over the shared StepPlan, as the peers'
 * mock models are, so every loop does the same work. (The scripted model of @weir/llm-mock is not
 * used: it copies the history into its request record on every call, a test tool's cost.)
 */
export interface WeirTurn {
  /** One turn of at most `k` tool steps on a new agent (a fresh history, as the peers start from a prompt). */
  readonly turn: (k: number) => Promise<unknown>;
  /** The agent of the last turn; `keep` decides whether it stays reachable after its turn. */
  readonly lastAgent: () => Agent | undefined;
  readonly forget: () => void;
}

const USER_TEXT = 'echo hello until done';

export function weirTurn(plan: StepPlan, keep = false): WeirTurn {
  const harness = createHarness();
  harness.tools.register(
    defineTool({
      name: 'echo',
      description: 'Returns its text.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      execute: async ({ text }) => {
        plan.toolRan();
        return text;
      },
    }),
  );

  const model: LanguageModel = {
    id: 'bench:plan',
    async complete(): Promise<ModelResponse> {
      if (plan.nextIsToolCall()) {
        return { text: '', toolCalls: [{ id: plan.callId(), name: 'echo', arguments: ECHO_ARGUMENTS }], finishReason: 'tool_calls' };
      }
      return { text: FINAL_TEXT, toolCalls: [], finishReason: 'stop' };
    },
  };

  let last: Agent | undefined;
  return {
    turn: async (k) => {
      // K tool steps and the answer: K + 1 model calls. Infinity for the long run would do too.
      const agent = createAgent({ model, harness, maxSteps: k + 1 });
      if (keep) last = agent;
      const result = await agent.turn(USER_TEXT);
      if (result.stopReason !== 'stop' && !plan.stopEarly) throw new Error(`weir turn stopped with ${result.stopReason}`);
    },
    lastAgent: () => last,
    forget: () => {
      last = undefined;
    },
  };
}
