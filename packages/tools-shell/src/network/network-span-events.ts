import type { NetworkDecision } from './network-decision.js';

/** The part of an OpenTelemetry span the shell tool writes to. */
export interface SpanLike {
  addEvent(name: string, attributes: Record<string, string | number>): unknown;
}

/** Returns the span active where it is called (the call's `execute_tool` span under `@weir/otel`), if any. */
export type ActiveSpan = () => SpanLike | undefined;

/**
 * Loads `@opentelemetry/api` (an optional peer) when the plugin with a filtered network is set
 * up; without it there are no span events (the log lines remain). Never rejects.
 */
export async function loadActiveSpan(): Promise<ActiveSpan | undefined> {
  try {
    const api = await import('@opentelemetry/api');
    return () => api.trace.getActiveSpan();
  } catch {
    return undefined;
  }
}

/** One `weir.shell.network` span event per decision: the host, the port, allow or deny, and why when denied. */
export function addNetworkEvent(span: SpanLike | undefined, decision: NetworkDecision): void {
  if (span === undefined) return;
  span.addEvent('weir.shell.network', decision.allowed
    ? { 'server.address': decision.host, 'server.port': decision.port, 'weir.network.decision': 'allow', 'network.peer.address': decision.address }
    : { 'server.address': decision.host, 'server.port': decision.port, 'weir.network.decision': 'deny', 'weir.network.reason': decision.reason });
}
