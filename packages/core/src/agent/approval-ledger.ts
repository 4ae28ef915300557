import type { SessionRecord } from './session-record.js';

/** A stored approval answer. */
export type ApprovalDecisionRecord = Extract<SessionRecord, { type: 'approval_decision' }>;

/**
 * The approval decisions of a session, looked up by call key and arguments hash together. The call
 * key is the harness's own for one execution, recorded with the assistant message that asked for
 * the call, so it survives a resume (the same call, re-run by `agent.resume()`, matches even if its
 * model id changed), while a model id used again (a replayed or re-numbered `call_0`) never picks
 * up an answer given to another call. An answer given for other arguments never applies either.
 * A decision recorded before call keys were (no `callKey`) is never reused: that call is asked
 * again. When a call was answered twice, the last answer counts.
 */
export class ApprovalLedger {
  readonly #decisions = new Map<string, ApprovalDecisionRecord>();

  /** Builds the ledger from a session's records (other record types are ignored). Never throws. */
  static from(records: readonly SessionRecord[]): ApprovalLedger {
    const ledger = new ApprovalLedger();
    for (const record of records) {
      if (record.type === 'approval_decision' && typeof record.callKey === 'string' && record.callKey !== '') {
        ledger.#decisions.set(key(record.callKey, record.argsHash), record);
      }
    }
    return ledger;
  }

  /** The stored decision for this execution (its call key) with exactly these arguments (see `argumentsHash`), or `undefined`. */
  find(callKey: string, argsHash: string): ApprovalDecisionRecord | undefined {
    return this.#decisions.get(key(callKey, argsHash));
  }

  /** How many (call, arguments) pairs have a decision. */
  get size(): number {
    return this.#decisions.size;
  }
}

// NUL cannot occur in a hex hash, so the key is unambiguous whatever the call key holds.
const key = (callKey: string, argsHash: string) => `${argsHash}\u0000${callKey}`;
