import { MeterProvider, MetricReader, type HistogramMetricData, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { createAgent, definePlugin } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { describe, expect, it } from 'vitest';
import { memoryTracing, tracedHarness } from './support.js';

/** A reader the test pulls from: collect() returns what the meter holds now. */
class PullReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

async function collect(reader: PullReader) {
  const { resourceMetrics } = await reader.collect();
  const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  return (name: string) => metrics.find((metric) => metric.descriptor.name === name);
}

describe('metrics', () => {
  it('gen_ai.execute_tool.duration by tool and outcome; approvals asked, allowed and denied; tokens per call and per turn', async () => {
    const reader = new PullReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
    const { harness } = await tracedHarness({ tracer: memoryTracing().tracer, meter });
    let answer: 'allow' | 'deny' = 'allow';
    await harness.use(
      definePlugin({
        name: 'asking',
        setup(ctx) {
          ctx.guards.add('ask', (call) => (call.tier === 'write' ? { decision: 'ask' } : undefined));
          ctx.approval.setResponder(() => ({ decision: answer }));
        },
      }),
    );
    await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'x' } });
    await harness.executeToolCall({ id: 'b', name: 'echo', arguments: { text: 'y' } });
    await harness.executeToolCall({ id: 'c', name: 'write_note', arguments: { text: 'z' } });
    answer = 'deny';
    await harness.executeToolCall({ id: 'd', name: 'write_note', arguments: { text: 'z' } });
    const model = createScriptedModel([
      { toolCalls: [{ name: 'echo', arguments: { text: 'q' } }], usage: { inputTokens: 40, outputTokens: 4 } },
      { text: 'ok', usage: { inputTokens: 60, outputTokens: 6 } },
    ]);
    await createAgent({ model, harness }).turn('go');

    const metric = await collect(reader);
    const duration = metric('gen_ai.execute_tool.duration') as HistogramMetricData;
    expect(duration.descriptor.unit).toBe('s');
    const count = (tool: string, outcome: string) =>
      duration.dataPoints.find((point) => point.attributes['gen_ai.tool.name'] === tool && point.attributes['weir.outcome'] === outcome)?.value.count;
    expect(count('echo', 'ok')).toBe(3);
    expect(count('write_note', 'ok')).toBe(1);
    expect(count('write_note', 'DENIED')).toBe(1);
    expect(duration.dataPoints.find((point) => point.attributes['weir.outcome'] === 'DENIED')?.attributes['error.type']).toBe('DENIED');

    const asked = metric('weir.approval.asked') as SumMetricData;
    expect(asked.dataPoints.map((point) => point.value)).toEqual([2]);
    const answered = metric('weir.approval.answered') as SumMetricData;
    const decided = (decision: string) => answered.dataPoints.find((point) => point.attributes['weir.approval.decision'] === decision)?.value;
    expect(decided('allow')).toBe(1);
    expect(decided('deny')).toBe(1);

    const perCall = metric('gen_ai.client.token.usage') as HistogramMetricData;
    const input = perCall.dataPoints.find((point) => point.attributes['gen_ai.token.type'] === 'input')!;
    expect(input.value.sum).toBe(100);
    expect(input.value.count).toBe(2);
    const perTurn = metric('weir.turn.token.usage') as HistogramMetricData;
    const turnOutput = perTurn.dataPoints.find((point) => point.attributes['gen_ai.token.type'] === 'output')!;
    expect(turnOutput.value).toMatchObject({ count: 1, sum: 10 });
  });
});
