/**
 * The peer loop on the Vercel AI SDK (`ai`): generateText with one zod-validated `echo` tool and
 * the SDK's own MockLanguageModelV3, stopping after K tool steps plus the final answer. Run in its
 * own process (`tsx --expose-gc`); prints one JSON line (see peer-report).
 */
import { runPeerBench } from './peer-bench.js';
import { ECHO_ARGUMENTS, FINAL_TEXT } from './step-plan.js';

// Zero usage, in the V3 shape; the SDK sums it over steps as it would a provider's.
const usage = () => ({
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
});

await runPeerBench({
  peer: 'ai (Vercel AI SDK)',
  packageName: 'ai',
  setup: async (plan) => {
    const { generateText, stepCountIs, tool } = await import('ai');
    const { MockLanguageModelV3 } = await import('ai/test');
    const { z } = await import('zod');

    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        // The mock records every call's options (the whole prompt) for test assertions; a long
        // turn would then hold every prompt it ever sent. That is the mock's cost, not the SDK's,
        // so the record is cut back to the current call.
        model.doGenerateCalls.length = 0;
        if (plan.nextIsToolCall()) {
          return {
            content: [{ type: 'tool-call', toolCallId: plan.callId(), toolName: 'echo', input: ECHO_ARGUMENTS }],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage: usage(),
            warnings: [],
          };
        }
        return {
          content: [{ type: 'text', text: FINAL_TEXT }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: usage(),
          warnings: [],
        };
      },
    });

    const tools = {
      echo: tool({
        description: 'Returns its input.',
        inputSchema: z.object({ text: z.string() }),
        execute: async ({ text }) => {
          plan.toolRan();
          return text;
        },
      }),
    };

    return {
      turn: (k) =>
        generateText({
          model,
          tools,
          // K tool steps, then the step whose text answer ends the loop.
          stopWhen: stepCountIs(k + 1),
          prompt: 'echo hello until done',
        }),
      notes:
        'generateText + tool({ inputSchema: zod }) + MockLanguageModelV3 (doGenerate); telemetry off (the default, no experimental_telemetry); ' +
        "the mock's per-call record (doGenerateCalls) is cleared each call so it does not retain prompts.",
    };
  },
});
