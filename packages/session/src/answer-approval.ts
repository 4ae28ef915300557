import { HarnessError, type SessionRecord } from '@weir/core';
import { pendingApprovalsOf } from './pending-approvals.js';
import type { SessionStore } from './session-store.js';

/** Which request an answer is for: a `PendingApproval` from `listPendingApprovals` is one. */
export interface ApprovalAnswerKey {
  readonly sessionId: string;
  readonly callKey: string;
  /** The hash of the arguments the person was shown: the answer binds them and no others. */
  readonly argumentsHash: string;
}

export interface ApprovalAnswer {
  readonly decision: 'allow' | 'deny';
  /** With a denial: what the model is told. */
  readonly message?: string;
}

/**
 * Answers a suspended approval from any process: opens the session for writing (so the answer is
 * appended by the one writer holding it, fenced like every other append), checks that the request
 * is still waiting with exactly these arguments, appends an `approval_decision` durably, and closes
 * the session. The call runs (or is reported denied) on the session's next `agent.resume()`.
 *
 * Throws `TypeError` for a malformed key or answer. Rejects with `HarnessError`:
 * `APPROVAL_NOT_PENDING` (no such request waits: answered already, the turn moved on, or never
 * asked), `APPROVAL_MISMATCH` (the request waits for other arguments than `argumentsHash`), and the
 * store's `SESSION_NOT_FOUND`, `SESSION_LOCKED` (another process holds the session: try again),
 * `SESSION_FENCED`, `SESSION_WRITE_FAILED`.
 */
export async function answerApproval(store: SessionStore, key: ApprovalAnswerKey, answer: ApprovalAnswer): Promise<SessionRecord> {
  for (const field of ['sessionId', 'callKey', 'argumentsHash'] as const) {
    if (typeof key?.[field] !== 'string' || key[field] === '') throw new TypeError(`answerApproval: key.${field} must be a non-empty string.`);
  }
  if (answer?.decision !== 'allow' && answer?.decision !== 'deny') throw new TypeError(`answerApproval: decision must be 'allow' or 'deny', got ${String(answer?.decision)}.`);
  if (answer.message !== undefined && typeof answer.message !== 'string') throw new TypeError('answerApproval: message must be a string.');

  const session = await store.open(key.sessionId);
  let stored: SessionRecord;
  try {
    // Read under the lock: nobody can answer or resume between this check and the append.
    const waiting = pendingApprovalsOf(session.id, session.records()).find((pending) => pending.callKey === key.callKey && pending.answer === undefined);
    if (waiting === undefined) {
      throw new HarnessError('APPROVAL_NOT_PENDING', `No approval is waiting for call ${key.callKey} in session ${key.sessionId}: it was answered already, the turn moved on, or it was never asked.`);
    }
    if (waiting.argumentsHash !== key.argumentsHash) {
      throw new HarnessError(
        'APPROVAL_MISMATCH',
        `The approval waiting for call ${key.callKey} in session ${key.sessionId} is for other arguments (hash ${waiting.argumentsHash}, not ${key.argumentsHash}): read them again with listPendingApprovals.`,
      );
    }
    const message = answer.decision === 'deny' && typeof answer.message === 'string' && answer.message.trim() !== '' ? { message: answer.message } : {};
    stored = await session.append(
      { type: 'approval_decision', callId: waiting.callId, callKey: waiting.callKey, toolName: waiting.toolName, argsHash: waiting.argumentsHash, decision: answer.decision, ...message },
      { sync: true },
    );
  } catch (error) {
    // The first failure is the one to report; the lock is released either way.
    await session.close().catch(() => undefined);
    throw error;
  }
  await session.close();
  return stored;
}
