import type { HookOutcome } from './hook-outcome.js';

/** The part of an OpenTelemetry span a hook run is written to. */
export interface SpanLike {
  addEvent(name: string, attributes: Record<string, string | number | boolean>): unknown;
}

/** The span active where it is called, if any. */
export type ActiveSpan = () => SpanLike | undefined;

/** The span event of one hook run. */
export const HOOK_SPAN_EVENT = 'weir.hook';

/**
 * Loads `@opentelemetry/api` (an optional peer). Without it there are no span events (the log
 * lines remain); without a registered SDK its active span is a no-op. Never rejects.
 */
export async function loadActiveSpan(): Promise<ActiveSpan> {
  try {
    const api = await import('@opentelemetry/api');
    return () => api.trace.getActiveSpan();
  } catch {
    return () => undefined;
  }
}

/**
 * One `weir.hook` event on `span`: the event, the hook's command (as `/hooks` and the log lines show
 * it) and its settings file, the decision, what weir did, how the process ended, the duration. Never
 * what went in or came out (the payload holds prompts, tool inputs and results; the answer and the
 * reason may quote them): those are content, and a span is exported elsewhere.
 */
export function addHookRunEvent(span: SpanLike | undefined, outcome: HookOutcome, effect: string, durationMs: number): void {
  if (span === undefined) return;
  const { hook, run } = outcome;
  const attributes: Record<string, string | number | boolean> = {
    'weir.hook.event': hook.event,
    'weir.hook.command': hook.command.replace(/\s+/g, ' ').trim().slice(0, 200),
    'weir.hook.source': hook.layer.file,
    'weir.hook.layer': hook.layer.name,
    'weir.hook.decision': outcome.decision,
    'weir.hook.effect': effect,
    'weir.hook.failed': outcome.failure !== undefined,
    'weir.hook.status': run.status,
    'weir.duration_ms': durationMs,
  };
  if (run.exitCode !== null) attributes['weir.hook.exit_code'] = run.exitCode;
  if (run.signal !== null) attributes['weir.hook.signal'] = run.signal;
  if (hook.eventName !== hook.event) attributes['weir.hook.event_name'] = hook.eventName;
  span.addEvent(HOOK_SPAN_EVENT, attributes);
}
