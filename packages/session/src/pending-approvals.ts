import { currentRecords, type AwaitingApproval, type SessionRecord } from '@weir/core';
import { rebuildHistory } from './rebuild-history.js';

/** An approval a suspended turn is waiting for (or, with `answer`, one answered and not yet resumed). */
export interface PendingApproval extends AwaitingApproval {
  readonly sessionId: string;
  /** The tool's tier when the call was suspended. */
  readonly tier: string;
  /** When the request was stored (ISO 8601). */
  readonly requestedAt: string;
  /**
   * The stored answer, when there is one: the call is still open, and the next `agent.resume()` of
   * the session runs it (allow) or reports the denial (deny). `undefined` while nobody answered.
   */
  readonly answer: { readonly decision: 'allow' | 'deny'; readonly message?: string } | undefined;
}

type RequestRecord = Extract<SessionRecord, { type: 'approval_request' }>;

/**
 * The approvals a session's records wait for: each `approval_request` whose call is still open in
 * the last turn (no result, not started) and is the latest request for its call key (a resume whose
 * arguments came out otherwise asked again, and the older request lapsed). Answered ones are kept
 * with their `answer` (an answer binds the call key and the arguments hash). Never throws.
 */
export function pendingApprovalsOf(sessionId: string, records: readonly SessionRecord[]): PendingApproval[] {
  const history = rebuildHistory(records, { pending: 'leave' });
  if (history.pending.length === 0) return [];
  const open = new Map(history.pending.map((call) => [call.key, call.id]));
  const latest = new Map<string, RequestRecord>();
  for (const record of currentRecords(records)) {
    if (record.type === 'approval_request' && open.get(record.callKey) === record.callId) latest.set(record.callKey, record);
  }
  return [...latest.values()].map((request) => {
    const decision = history.approvals.find(request.callKey, request.argsHash);
    const answer = decision === undefined || decision.toolName !== request.toolName ? undefined : decision.message === undefined ? { decision: decision.decision } : { decision: decision.decision, message: decision.message };
    return {
      sessionId,
      callId: request.callId,
      callKey: request.callKey,
      toolName: request.toolName,
      tier: request.tier,
      arguments: request.arguments,
      argumentsHash: request.argsHash,
      reason: request.reason,
      askedBy: request.askedBy,
      requestedAt: request.at,
      answer,
    };
  });
}
