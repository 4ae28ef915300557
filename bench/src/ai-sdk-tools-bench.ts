import { aiSdkTools } from '@weir/ai-sdk';
import { createHarness, defineTool } from '@weir/core';
import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { interleavedMediansWithCpu, printTable } from './measure.js';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } as const;

/** The AI SDK's own mock model: a tool call to `echo`, then a text answer; forever, two calls per turn. */
function toolThenText(): MockLanguageModelV3 {
  let call = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async () => {
      // The mock keeps every call's options; cleared so a long run does not hold them all.
      model.doGenerateCalls.length = 0;
      call += 1;
      if (call % 2 === 1) {
        return { content: [{ type: 'tool-call', toolCallId: `c${call}`, toolName: 'echo', input: '{"text":"hello"}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
  return model;
}

/**
 * One tool call through `generateText` (a tool step, then the answer) with a plain AI SDK tool,
 * against the same tool as a weir tool through `aiSdkTools(harness)`, in interleaved rounds of one
 * process. The difference per turn is what weir adds to one call: its pipeline (validation, the
 * six stages, rendering) and the bridge. Plain tools: zod input (what AI SDK users write; the SDK
 * validates it) and `jsonSchema()` without a validator (nothing validates: the floor).
 */
export async function aiSdkToolsBench(options: { quick?: boolean } = {}): Promise<void> {
  const harness = createHarness();
  harness.tools.register(
    defineTool({ name: 'echo', description: 'Returns its text.', tier: 'read-only', parameters: SCHEMA, timeoutMs: Number.POSITIVE_INFINITY, execute: ({ text }) => text }),
  );
  const sets: Record<string, ToolSet> = {
    'plain AI SDK tool, zod input': { echo: tool({ description: 'Returns its text.', inputSchema: z.object({ text: z.string() }).strict(), execute: async ({ text }) => text }) },
    'plain AI SDK tool, jsonSchema() without validator': { echo: tool({ description: 'Returns its text.', inputSchema: jsonSchema<{ text: string }>(SCHEMA), execute: async ({ text }) => text }) },
    'weir tool through aiSdkTools(harness)': aiSdkTools(harness),
  };
  const cases = Object.fromEntries(
    Object.entries(sets).map(([name, tools]) => {
      const model = toolThenText();
      return [
        name,
        async (n: number) => {
          for (let i = 0; i < n; i += 1) await generateText({ model, tools, prompt: 'echo hello', stopWhen: stepCountIs(2) });
        },
      ];
    }),
  );
  const iterations = options.quick ? 100 : 1_000;
  const rounds = options.quick ? 3 : 15;
  const { wall, cpu } = await interleavedMediansWithCpu(cases, { iterations, rounds, warmupRounds: options.quick ? 1 : 3 });
  console.log(`\nAI SDK bridge: one tool call through generateText (ai 6, MockLanguageModelV3; median of ${rounds} rounds x ${iterations} turns, a turn = tool step + answer step)`);
  // CPU time is the figure to read on a shared machine: a turn never waits for I/O, and the wall
  // time also counts the time other processes held the cores.
  const zodName = 'plain AI SDK tool, zod input';
  const floorName = 'plain AI SDK tool, jsonSchema() without validator';
  printTable(
    ['case', 'wall µs/turn', 'CPU µs/turn', 'CPU more than zod tool µs', 'CPU more than unvalidated tool µs', 'target'],
    Object.keys(cases).map((name) => [
      name,
      (wall[name]! / 1000).toFixed(1),
      (cpu[name]! / 1000).toFixed(1),
      ((cpu[name]! - cpu[zodName]!) / 1000).toFixed(1),
      ((cpu[name]! - cpu[floorName]!) / 1000).toFixed(1),
      name.startsWith('weir') ? '<= 15 µs more' : '-',
    ]),
  );
  // The bridge alone, outside generateText: one executeToolCall, against the ToolSet's execute and
  // toModelOutput around the same call (what aiSdkTools adds to weir's own pipeline).
  const bridged = sets['weir tool through aiSdkTools(harness)']!.echo! as unknown as ReturnType<typeof aiSdkTools>[string];
  const input = { text: 'hello' };
  const direct = await interleavedMediansWithCpu(
    {
      'harness.executeToolCall': async (n: number) => {
        for (let i = 0; i < n; i += 1) await harness.executeToolCall({ id: 'c', name: 'echo', arguments: input });
      },
      'aiSdkTools execute + toModelOutput': async (n: number) => {
        for (let i = 0; i < n; i += 1) bridged.toModelOutput({ output: await bridged.execute(input, { toolCallId: 'c' }) });
      },
    },
    { iterations: options.quick ? 1_000 : 10_000, rounds, warmupRounds: options.quick ? 1 : 3 },
  );
  printTable(
    ['the bridge alone', 'CPU µs/call'],
    Object.entries(direct.cpu).map(([name, ns]) => [name, (ns / 1000).toFixed(2)]),
  );
  await harness.close();
}
