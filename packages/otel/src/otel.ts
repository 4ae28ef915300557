import type { Meter, Tracer } from '@opentelemetry/api';
import { definePlugin, type Plugin } from '@weir/core';
import { createInstruments } from './instruments.js';
import { loadApi, type Api } from './load-api.js';
import { traceLogFields, type TraceLogFields } from './log-fields.js';
import { ToolSpans } from './tool-spans.js';
import { TurnSpans } from './turn-spans.js';

/**
 * True when an SDK registered a global tracer provider: the API's proxy then delegates to it. A
 * fresh proxy's delegate is the API's own no-op provider, the same object the global proxy returns
 * while nothing is registered.
 */
function tracerProviderRegistered(api: Api): boolean {
  const global = api.trace.getTracerProvider() as { getDelegate?: () => unknown };
  if (typeof global.getDelegate !== 'function') return true;
  return global.getDelegate() !== new api.ProxyTracerProvider().getDelegate();
}

/** The name of the tracer and the meter this package makes when none is given. */
export const INSTRUMENTATION_SCOPE = '@weir/otel';

export interface OtelOptions {
  /** Where spans go. Default: `trace.getTracer('@weir/otel')` from the globally registered provider (the API's no-op when none is). */
  readonly tracer?: Tracer;
  /** Where metrics go. Default: `metrics.getMeter('@weir/otel')` from the global provider (no-op when none is registered). */
  readonly meter?: Meter;
  /**
   * Write what the model and the tools exchanged: tool arguments and results, the messages of each
   * model call, guard reasons and error messages. Default `false`: spans then carry names, ids,
   * timings, codes and counts only, never an argument, a result or a message.
   */
  readonly captureContent?: boolean;
  /** `gen_ai.agent.name` of the turn spans (`invoke_agent {agentName}`). Default `'weir'`. */
  readonly agentName?: string;
}

/** The plugin, and a pino mixin that puts the trace and span ids on log lines. */
export interface OtelPlugin extends Plugin {
  /**
   * For `pino({ mixin: tracing.logFields })`: `{ trace_id, span_id, trace_flags }` of the call a
   * line names (by `callId`) while its span is open, else of the active span; `{}` otherwise (and
   * before the plugin is set up).
   */
  readonly logFields: (mergeObject?: unknown) => TraceLogFields;
}

/**
 * OpenTelemetry for a harness: `execute_tool {name}` per tool call, `invoke_agent {agent}` per agent
 * turn and `chat {model}` per model call, with metrics. Uses `@opentelemetry/api` only (loaded at
 * setup); the application registers its SDK and exporter. Unloading removes every tap and ends any
 * span still open.
 */
export function otel(options: OtelOptions = {}): OtelPlugin {
  if (typeof options !== 'object' || options === null) throw new TypeError('otel: options must be an object.');
  const { tracer, meter, captureContent = false, agentName = 'weir' } = options;
  if (typeof captureContent !== 'boolean') throw new TypeError(`otel: captureContent must be a boolean, got ${typeof captureContent}.`);
  if (typeof agentName !== 'string' || agentName === '') throw new TypeError('otel: agentName must be a non-empty string.');
  if (tracer !== undefined && typeof tracer.startSpan !== 'function') throw new TypeError('otel: tracer must be an OpenTelemetry Tracer (with startSpan).');
  if (meter !== undefined && typeof meter.createHistogram !== 'function') throw new TypeError('otel: meter must be an OpenTelemetry Meter (with createHistogram).');

  // One instance may serve several harnesses: each setup adds its spans, each unload removes them.
  let api: Api | undefined;
  const loadedOn = new Set<ToolSpans>();

  const plugin = definePlugin({
    name: 'otel',
    async setup(ctx) {
      const loaded = await loadApi();
      const settings = {
        api: loaded,
        tracer: tracer ?? loaded.trace.getTracer(INSTRUMENTATION_SCOPE),
        instruments: createInstruments(meter ?? loaded.metrics.getMeter(INSTRUMENTATION_SCOPE)),
        captureContent,
        agentName,
      };
      const turns = new TurnSpans(settings);
      const calls = new ToolSpans(settings, turns);
      ctx.hooks.turn.tap(turns.onTurn);
      ctx.hooks.modelCall.tap(turns.wrapModelCall);
      ctx.hooks.call.tap(calls.onCall);
      // Running bodies inside their span costs an execute tap on every call: only when spans can be
      // recorded (a tracer was given, or an SDK was registered before this setup).
      if (tracer !== undefined || tracerProviderRegistered(loaded)) ctx.hooks.execute.tap(calls.wrapDispatch);
      api = loaded;
      loadedOn.add(calls);
      ctx.onDispose(() => {
        loadedOn.delete(calls);
        calls.endAll();
        turns.endAll();
      });
    },
  });

  const spanOfCall = (callId: string) => {
    for (const calls of loadedOn) {
      const span = calls.spanOfCall(callId);
      if (span !== undefined) return span;
    }
    return undefined;
  };
  const logFields = (mergeObject?: unknown): TraceLogFields => (loadedOn.size === 0 ? {} : traceLogFields(api, spanOfCall, mergeObject));
  return Object.freeze({ ...plugin, logFields });
}
