import type { SessionRecord } from './session-record.js';

/** A stored approval answer. */
export type ApprovalDecisionRecord = Extract<SessionRecord, { type: 'approval_decision' }>;

/**
 * The approval decisions of a session, looked up by call id and arguments hash together: an answer
 * given for other arguments never applies. When a call was answered twice, the last answer counts.
 */
export class ApprovalLedger {
  readonly #decisions = new Map<string, ApprovalDecisionRecord>();

  /** Builds the ledger from a session's records (other record types are ignored). Never throws. */
  static from(records: readonly SessionRecord[]): ApprovalLedger {
    const ledger = new ApprovalLedger();
    for (const record of records) {
      if (record.type === 'approval_decision') ledger.#decisions.set(key(record.callId, record.argsHash), record);
    }
    return ledger;
  }

  /** The stored decision for this call with exactly these arguments (see `argumentsHash`), or `undefined`. */
  find(callId: string, argsHash: string): ApprovalDecisionRecord | undefined {
    return this.#decisions.get(key(callId, argsHash));
  }

  /** How many (call, arguments) pairs have a decision. */
  get size(): number {
    return this.#decisions.size;
  }
}

// NUL cannot occur in a hex hash, so the key is unambiguous whatever the call id holds.
const key = (callId: string, argsHash: string) => `${argsHash}\u0000${callId}`;
