import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * A console exporter that prints spans as a tree, one line each: name, duration, the attributes
 * worth reading at a glance, and the span events under it. Spans are held until `shutdown()`
 * (a tree needs its root), then printed, children in start order.
 */
export class TreeConsoleExporter implements SpanExporter {
  readonly #spans: ReadableSpan[] = [];
  readonly #write: (line: string) => void;

  constructor(write: (line: string) => void = (line) => console.log(line)) {
    this.#write = write;
  }

  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    this.#spans.push(...spans);
    done({ code: 0 });
  }

  async shutdown(): Promise<void> {
    const ids = new Set(this.#spans.map((span) => span.spanContext().spanId));
    const children = new Map<string, ReadableSpan[]>();
    const roots: ReadableSpan[] = [];
    for (const span of [...this.#spans].sort((a, b) => ms(a.startTime) - ms(b.startTime))) {
      const parent = span.parentSpanContext?.spanId;
      if (parent === undefined || !ids.has(parent)) roots.push(span);
      else children.set(parent, [...(children.get(parent) ?? []), span]);
    }
    const print = (span: ReadableSpan, prefix: string, last: boolean, root: boolean) => {
      const branch = root ? '' : last ? '└─ ' : '├─ ';
      this.#write(`${prefix}${branch}${span.name}  ${(ms(span.endTime) - ms(span.startTime)).toFixed(1)} ms${describe(span)}`);
      const inner = root ? prefix : `${prefix}${last ? '   ' : '│  '}`;
      for (const event of span.events) this.#write(`${inner}   · ${event.name}${eventDetail(event.attributes ?? {})}`);
      const kids = children.get(span.spanContext().spanId) ?? [];
      kids.forEach((kid, index) => print(kid, inner, index === kids.length - 1, false));
    };
    for (const root of roots) print(root, '', true, true);
    this.#spans.length = 0;
  }

  async forceFlush(): Promise<void> {}
}

function ms(time: [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

const SHOWN = ['gen_ai.tool.call.id', 'weir.tool.tier', 'weir.tool.attempts', 'gen_ai.response.finish_reasons', 'gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'weir.turn.stop_reason', 'error.type'];

function describe(span: ReadableSpan): string {
  const parts = SHOWN.filter((key) => span.attributes[key] !== undefined).map((key) => `${key.split('.').pop()}=${String(span.attributes[key])}`);
  return parts.length === 0 ? '' : `  [${parts.join(' ')}]`;
}

function eventDetail(attributes: Record<string, unknown>): string {
  const duration = attributes['weir.duration_ms'];
  const rest = Object.entries(attributes)
    .filter(([key]) => key !== 'weir.duration_ms')
    .map(([key, value]) => `${key.replace(/^weir\./, '')}=${String(value)}`);
  return `${typeof duration === 'number' ? ` ${duration.toFixed(3)} ms` : ''}${rest.length === 0 ? '' : `  ${rest.join(' ')}`}`;
}
