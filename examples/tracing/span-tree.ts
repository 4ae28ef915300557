/**
 * The span tree of one agent turn: the OpenTelemetry SDK records what `@weir/otel` makes
 * (`invoke_agent`, a `chat` span per model call, an `execute_tool` span per tool call with where
 * its time went) and a small console exporter prints it as a tree. The model is the deterministic
 * mock, the tool is `read_file` from @weir/tools-fs on ./workspace.
 * Run: `tsx --conditions=@weir/source examples/tracing/span-tree.ts ["read file notes.txt"]`.
 */
import { fileURLToPath } from 'node:url';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAgent, createHarness } from '@weir/core';
import { createMockModel } from '@weir/llm-mock';
import { otel } from '@weir/otel';
import { fsTools } from '@weir/tools-fs';
import { TreeConsoleExporter } from './tree-console-exporter.js';

const line = process.argv[2] ?? 'read file notes.txt';

// The application owns the SDK: a provider, a processor and an exporter. The plugin uses only the API.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new TreeConsoleExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const harness = createHarness();
await harness.use(fsTools({ root: fileURLToPath(new URL('./workspace/', import.meta.url)) }));
await harness.use(otel({ tracer: provider.getTracer('span-tree-example') }));

const agent = createAgent({ model: createMockModel(), harness });
console.log(`[user] ${line}`);
const result = await agent.turn(line);
console.log(`[assistant] ${result.text.replace(/\n/g, ' ⏎ ')}`);
console.log('');

await harness.close();
await provider.shutdown(); // prints the tree
