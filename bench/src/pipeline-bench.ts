import { createHarness, definePlugin, defineTool, type Harness, type ToolDefinition, type ToolExecution } from '@weir/core';
import { interleavedMediansWithCpu, printTable } from './measure.js';

const parameters = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
} as const;

const body = async (args: { text: string }) => args.text;

function echo(timeoutMs: number): ToolDefinition {
  return defineTool({ name: 'echo', description: 'Returns its text.', tier: 'read-only', parameters, timeoutMs, execute: body });
}

async function harnessFor(tool: ToolDefinition, tapEveryStage: boolean): Promise<Harness> {
  const harness = createHarness();
  harness.tools.register(tool);
  if (tapEveryStage) {
    await harness.use(
      definePlugin({
        name: 'one-tap-per-stage',
        setup(ctx) {
          // Async taps on the async stages; the synchronous stages take synchronous taps.
          ctx.hooks.prepareExecution.tapPromise(async () => undefined);
          ctx.hooks.execute.tapPromise(async () => undefined);
          ctx.hooks.createSuccessResult.tap(() => undefined);
          ctx.hooks.postExecute.tapPromise(async () => undefined);
          ctx.hooks.finalizeContent.tap(() => undefined);
          ctx.hooks.result.tap(() => undefined);
        },
      }),
    );
  }
  return harness;
}

/**
 * The pipeline's overhead per call against calling the tool body directly, in one process:
 * no taps and no deadline; a per-call deadline and a caller's signal; one tap on every stage
 * (with the deadline and signal). Prints medians and ratios.
 */
export async function pipelineBench(): Promise<void> {
  const bare = await harnessFor(echo(Number.POSITIVE_INFINITY), false);
  const timed = await harnessFor(echo(30_000), false);
  const tapped = await harnessFor(echo(30_000), true);
  const turn = new AbortController();
  const args = { text: 'hello' };
  const exec = { signal: turn.signal, callId: 'c', toolName: 'echo', attempt: 1 } as ToolExecution;
  const call = { id: 'c', name: 'echo', arguments: args };

  const cases = {
    'tool body called directly': async (n: number) => {
      for (let i = 0; i < n; i += 1) await body(args);
      void exec;
    },
    'weir: no taps, no deadline': async (n: number) => {
      for (let i = 0; i < n; i += 1) await bare.executeToolCall(call);
    },
    'weir: deadline + signal': async (n: number) => {
      for (let i = 0; i < n; i += 1) await timed.executeToolCall(call, { signal: turn.signal });
    },
    'weir: one tap per stage + deadline + signal': async (n: number) => {
      for (let i = 0; i < n; i += 1) await tapped.executeToolCall(call, { signal: turn.signal });
    },
  };

  const { wall, cpu } = await interleavedMediansWithCpu(cases, { iterations: 5_000, rounds: 15, warmupRounds: 3 });
  const baseline = wall['tool body called directly']!;
  const targets: Record<string, string> = {
    'weir: no taps, no deadline': '<= 2.2 µs',
    'weir: deadline + signal': '<= 4.5 µs',
    'weir: one tap per stage + deadline + signal': '<= 7 µs',
  };
  console.log('\nPipeline overhead per tool call (median of 15 rounds x 5,000 calls, arguments given as an object; CPU µs: this process\'s CPU time, which other processes on the machine do not inflate)');
  printTable(
    ['case', 'µs/call', 'CPU µs/call', 'overhead µs', 'ratio vs body', 'target'],
    Object.entries(wall).map(([name, ns]) => [
      name,
      (ns / 1000).toFixed(2),
      (cpu[name]! / 1000).toFixed(2),
      name === 'tool body called directly' ? '-' : ((ns - baseline) / 1000).toFixed(2),
      `${(ns / baseline).toFixed(1)}x`,
      targets[name] ?? '-',
    ]),
  );
}
