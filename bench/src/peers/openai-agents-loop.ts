/**
 * The peer loop on the OpenAI Agents SDK (`@openai/agents-core`): an Agent with one zod-validated
 * `echo` tool, run by a Runner, over a model of our own that implements the SDK's `Model`
 * interface. Tracing is disabled both globally and on the Runner. Run in its own process
 * (`tsx --expose-gc`); prints one JSON line (see peer-report).
 */
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { runPeerBench } from './peer-bench.js';
import { ECHO_ARGUMENTS, FINAL_TEXT } from './step-plan.js';

await runPeerBench({
  peer: '@openai/agents-core',
  packageName: '@openai/agents-core',
  setup: async (plan) => {
    const { Agent, Runner, Usage, setTracingDisabled, tool } = await import('@openai/agents-core');
    const { z } = await import('zod');

    // Spans cost time even when nothing exports them; the comparison is with tracing off.
    setTracingDisabled(true);

    /** Answers from the shared plan in the Responses-API item shapes the SDK expects. */
    class PlanModel implements Model {
      async getResponse(_request: ModelRequest): Promise<ModelResponse> {
        if (plan.nextIsToolCall()) {
          return {
            usage: new Usage(),
            output: [
              { type: 'function_call', callId: plan.callId(), name: 'echo', arguments: ECHO_ARGUMENTS, status: 'completed' },
            ],
          };
        }
        return {
          usage: new Usage(),
          output: [
            { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FINAL_TEXT }] },
          ],
        };
      }

      // The benchmark drives the non-streaming path only (generateText's counterpart).
      // eslint-disable-next-line require-yield
      async *getStreamedResponse(_request: ModelRequest): AsyncIterable<StreamEvent> {
        throw new Error('PlanModel: streaming is not used by the benchmark');
      }
    }

    const echo = tool({
      name: 'echo',
      description: 'Returns its input.',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        plan.toolRan();
        return text;
      },
    });

    const agent = new Agent({
      name: 'echo-agent',
      instructions: 'Call echo until done.',
      model: new PlanModel(),
      tools: [echo],
    });
    const runner = new Runner({ tracingDisabled: true });

    return {
      // A "turn" in the SDK is one model call: K tool steps plus the final answer.
      turn: (k) => runner.run(agent, 'echo hello until done', { maxTurns: k + 1 }),
      notes:
        'Runner.run (non-streaming) + Agent + tool({ parameters: zod }) + a Model implementation; ' +
        'setTracingDisabled(true) and Runner({ tracingDisabled: true }); maxTurns = K + 1.',
    };
  },
});
