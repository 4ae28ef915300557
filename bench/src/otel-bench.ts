import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createHarness, defineTool, type Harness } from '@weir/core';
import { otel } from '@weir/otel';
import { interleavedMedians, printTable } from './measure.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  tier: 'read-only',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  timeoutMs: Number.POSITIVE_INFINITY,
  execute: async (args: { text: string }) => args.text,
});

async function harnessWith(plugin: Parameters<Harness['use']>[0] | undefined): Promise<Harness> {
  const harness = createHarness();
  harness.tools.register(echo);
  if (plugin !== undefined) await harness.use(plugin);
  return harness;
}

/**
 * What `@weir/otel` costs per tool call, beside the bare pipeline in the same process: the plugin
 * loaded with no SDK registered (the API's no-op tracer and meter), and with the SDK recording every
 * span to memory (a SimpleSpanProcessor into an InMemorySpanExporter, emptied after each round).
 */
export async function otelBench(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const bare = await harnessWith(undefined);
  const noop = await harnessWith(otel());
  const recording = await harnessWith(otel({ tracer: provider.getTracer('bench') }));
  const call = { id: 'c', name: 'echo', arguments: { text: 'hello' } };

  const cases = {
    'weir: no taps, no deadline (no plugin)': async (n: number) => {
      for (let i = 0; i < n; i += 1) await bare.executeToolCall(call);
    },
    'weir + otel, no SDK (no-op tracer and meter)': async (n: number) => {
      for (let i = 0; i < n; i += 1) await noop.executeToolCall(call);
    },
    'weir + otel, SDK recording to memory': async (n: number) => {
      for (let i = 0; i < n; i += 1) await recording.executeToolCall(call);
      exporter.reset();
    },
  };
  const medians = await interleavedMedians(cases, { iterations: 5_000, rounds: 15, warmupRounds: 3 });
  const baseline = medians['weir: no taps, no deadline (no plugin)']!;
  const targets: Record<string, string> = { 'weir + otel, no SDK (no-op tracer and meter)': '<= 3 µs more' };
  console.log('\nOpenTelemetry plugin (@weir/otel) per tool call (median of 15 rounds x 5,000 calls, one execute_tool span each)');
  printTable(
    ['case', 'µs/call', 'more than bare µs', 'target'],
    Object.entries(medians).map(([name, ns]) => [name, (ns / 1000).toFixed(2), name === 'weir: no taps, no deadline (no plugin)' ? '-' : ((ns - baseline) / 1000).toFixed(2), targets[name] ?? '-']),
  );
  await provider.shutdown();
}
