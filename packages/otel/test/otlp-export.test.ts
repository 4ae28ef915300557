import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAgent } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET, tracedHarness } from './support.js';

/** A span as OTLP/JSON carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  events?: { name: string }[];
}

/** A loopback OTLP/HTTP receiver: decodes each POST to /v1/traces (JSON, gzip or not) and keeps the spans. */
async function startReceiver() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
    const payload = JSON.parse(body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const resource of payload.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, spans, paths, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An attribute's value, whatever its OTLP type. */
function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('boolValue' in value) return value.boolValue;
  if ('doubleValue' in value) return value.doubleValue;
  if ('arrayValue' in value) return ((value.arrayValue as { values?: { stringValue?: string }[] }).values ?? []).map((item) => item.stringValue);
  return value;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('the OTLP/HTTP exporter, end to end to a loopback receiver', () => {
  it('a whole agent turn arrives with the convention\'s names, the parents and the attributes', async () => {
    const receiver = await startReceiver();
    cleanup.push(receiver.close);
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))] });
    cleanup.push(() => provider.shutdown());
    const { harness } = await tracedHarness({ tracer: provider.getTracer('otlp-test') });
    const model = createScriptedModel(
      [
        {
          toolCalls: [
            { id: 'k1', name: 'echo', arguments: { text: SECRET } },
            { id: 'k2', name: 'write_note', arguments: { text: SECRET } },
          ],
          usage: { inputTokens: 12, outputTokens: 3 },
        },
        { text: 'done', usage: { inputTokens: 20, outputTokens: 1 } },
      ],
      { id: 'mock:otlp' },
    );
    await createAgent({ model, harness }).turn(`hello ${SECRET}`);
    await provider.forceFlush();

    expect(receiver.paths.every((line) => line.startsWith('POST /v1/traces application/json'))).toBe(true);
    const { spans } = receiver;
    const byName = (name: string) => spans.filter((span) => span.name === name);
    expect(spans.map((span) => span.name).sort()).toEqual(['chat otlp', 'chat otlp', 'execute_tool echo', 'execute_tool write_note', 'invoke_agent weir']);

    const [turn] = byName('invoke_agent weir');
    expect(turn!.parentSpanId ?? '').toBe('');
    expect(attribute(turn!, 'gen_ai.operation.name')).toBe('invoke_agent');
    expect(attribute(turn!, 'gen_ai.usage.input_tokens')).toBe(32);
    const chats = byName('chat otlp');
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(turn!.spanId);
      expect(chat.traceId).toBe(turn!.traceId);
      expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(attribute(chat, 'gen_ai.provider.name')).toBe('mock');
      expect(attribute(chat, 'gen_ai.request.model')).toBe('otlp');
    }
    const firstChat = chats.find((chat) => attribute(chat, 'weir.step') === 1)!;
    expect(attribute(firstChat, 'gen_ai.response.finish_reasons')).toEqual(['tool_calls']);
    for (const name of ['execute_tool echo', 'execute_tool write_note']) {
      const [tool] = byName(name);
      expect(tool!.parentSpanId).toBe(firstChat.spanId);
      expect(tool!.kind).toBe(1); // SPAN_KIND_INTERNAL
      expect(attribute(tool!, 'gen_ai.operation.name')).toBe('execute_tool');
      expect(tool!.events?.map((event) => event.name)).toContain('weir.execute');
    }
    expect(attribute(byName('execute_tool echo')[0]!, 'gen_ai.tool.call.id')).toBe('k1');
    expect(attribute(byName('execute_tool write_note')[0]!, 'weir.tool.tier')).toBe('write');
    // captureContent is off: the secret never left the process.
    expect(JSON.stringify(spans)).not.toContain(SECRET);
  });
});
