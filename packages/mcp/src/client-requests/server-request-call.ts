import { randomUUID } from 'node:crypto';
import type { ApprovalOutcome, CallRun, PluginApprovalRequest, ToolExecution } from '@weir/core';

/** Asks the harness's approval responder (the plugin's `ctx.approval.request`). Never rejects. */
export type AskApprover = (request: PluginApprovalRequest, signal: AbortSignal) => Promise<ApprovalOutcome>;

/** The weir calls of one server that are running now, to tell which call a server's request belongs to. */
export interface CallsInFlight {
  /** The calls to the server now under way, oldest first. */
  current(): readonly ToolExecution[];
}

/**
 * Who a server's request (`elicitation/create`, `sampling/createMessage`) is asked on behalf of:
 * the one weir call to that server under way, when there is exactly one (the protocol's requests
 * carry no link to the call on stdio, so with several under way it cannot be told). The approver
 * is shown that call's id and tool; otherwise an id of its own and `<server>__<what>`.
 */
export function requestSubject(server: string, what: string, calls: CallsInFlight): { callId: string; callKey: string; toolName: string } {
  const running = calls.current();
  const only = running.length === 1 ? running[0]! : undefined;
  if (only !== undefined) return { callId: only.callId, callKey: only.callKey, toolName: only.toolName };
  const id = `${server}-${what}-${randomUUID()}`;
  return { callId: id, callKey: id, toolName: `${server}__${what}` };
}

/**
 * The run (the agent turn) a server's request is made for: the run of every call under way when
 * they share one; `'unknown'` when calls of different runs are under way; `undefined` when none is.
 */
export function requestRun(calls: CallsInFlight): CallRun | 'unknown' | undefined {
  const runs = new Set(calls.current().map((exec) => exec.run));
  if (runs.size > 1) return 'unknown';
  return runs.values().next().value;
}
