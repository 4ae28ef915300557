import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createHarness, defineTool, type Harness, type HarnessOptions, type ToolDefinition } from '@weir/core';
import { otel, type OtelOptions, type OtelPlugin } from '@weir/otel';

/** A real SDK tracer recording every ended span to memory. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  return {
    tracer,
    provider,
    exporter,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    named: (name: string): ReadableSpan => {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`expected one span named "${name}", found ${found.length}: ${exporter.getFinishedSpans().map((span) => span.name).join(', ')}`);
      return found[0]!;
    },
  };
}

/** Is `child`'s parent `parent`? */
export function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return child.parentSpanContext?.spanId === parent.spanContext().spanId && child.spanContext().traceId === parent.spanContext().traceId;
}

/** The names of a span's events, in order. */
export function eventNames(span: ReadableSpan): string[] {
  return span.events.map((event) => event.name);
}

/** Everything a span holds, as one string: name, attributes, events and their attributes, status. */
export function everything(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tools the scenarios call. `SECRET` appears in arguments and results, never in names. */
export const SECRET = 'hunter2-9f3c';

export function scenarioTools(): ToolDefinition[] {
  let flakyRuns = 0;
  return [
    defineTool({
      name: 'echo',
      description: 'Returns the text it is given.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => `echo: ${text}`,
    }),
    defineTool({
      name: 'slow',
      description: 'Sleeps for ms milliseconds.',
      tier: 'read-only',
      timeoutMs: 50,
      parameters: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
      execute: async ({ ms }, exec) => {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          exec.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(exec.signal.reason);
          });
        });
        return `slept ${ms}`;
      },
    }),
    defineTool({
      name: 'flaky',
      description: 'Fails twice, then works.',
      tier: 'read-only',
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 1 },
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      execute: () => {
        flakyRuns += 1;
        if (flakyRuns % 3 !== 0) throw new Error(`flaky failure ${flakyRuns}`);
        return 'finally';
      },
    }),
    defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      tier: 'write',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => `wrote ${text.length} characters`,
    }),
    defineTool({
      name: 'wait',
      description: 'Waits ms milliseconds.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
      execute: async ({ ms }) => {
        await sleep(ms);
        return `waited ${ms}`;
      },
    }),
  ];
}

/** A harness with the scenario tools and the otel plugin loaded. */
export async function tracedHarness(options: OtelOptions, harnessOptions?: HarnessOptions): Promise<{ harness: Harness; plugin: OtelPlugin; unload: () => Promise<void> }> {
  const harness = createHarness(harnessOptions);
  for (const tool of scenarioTools()) harness.tools.register(tool);
  const plugin = otel(options);
  const unload = await harness.use(plugin);
  return { harness, plugin, unload };
}
