import type { Span } from '@opentelemetry/api';
import type { Api } from './load-api.js';

/** What a log line gains: the W3C ids of the span it belongs to, named as OpenTelemetry's log bridges name them. */
export interface TraceLogFields {
  readonly trace_id?: string;
  readonly span_id?: string;
  readonly trace_flags?: string;
}

const NONE: TraceLogFields = Object.freeze({});

/**
 * A pino `mixin`: the trace and span ids for a log line. A line that names a call (`callId`, as
 * every core line about a call does) gets that call's `execute_tool` span while it is open;
 * any other line gets the span active where it was logged. Lines outside any span gain nothing.
 */
export function traceLogFields(api: Api | undefined, spanOfCall: (callId: string) => Span | undefined, mergeObject: unknown): TraceLogFields {
  if (api === undefined) return NONE;
  const callId = typeof mergeObject === 'object' && mergeObject !== null ? (mergeObject as { callId?: unknown }).callId : undefined;
  const span = (typeof callId === 'string' ? spanOfCall(callId) : undefined) ?? api.trace.getActiveSpan();
  if (span === undefined) return NONE;
  const ids = span.spanContext();
  if (!api.isSpanContextValid(ids)) return NONE;
  return { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: `0${(ids.traceFlags & 0xff).toString(16)}`.slice(-2) };
}
