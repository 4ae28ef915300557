import type { PolicyEvaluation } from '../rules/evaluate-policy.js';

/** What a decision is bound to. */
export interface DecisionKey {
  readonly callId: string;
  readonly toolName: string;
  /** `argumentsHash(arguments)`: the canonical-JSON hash of the validated, final arguments. */
  readonly argumentsHash: string;
}

/** Calls kept before the oldest is dropped: results that are never announced cannot grow it forever. */
const DEFAULT_CAPACITY = 1024;

/**
 * The policy decisions of calls in flight, each bound to (call id, tool name, canonical-JSON hash
 * of the arguments). The guard records a decision once per call; the approval responder finds it
 * by the same key, so the prompt offers exactly the scope the policy computed for those arguments,
 * and a request whose arguments differ from the ones evaluated finds nothing.
 */
export class DecisionLedger {
  // call id -> (tool name + hash) -> decision; grouped by call so a final result forgets its call at once.
  readonly #calls = new Map<string, Map<string, PolicyEvaluation>>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(key: DecisionKey): PolicyEvaluation | undefined {
    return this.#calls.get(key.callId)?.get(inner(key));
  }

  set(key: DecisionKey, evaluation: PolicyEvaluation): void {
    const decisions = this.#calls.get(key.callId) ?? new Map<string, PolicyEvaluation>();
    decisions.set(inner(key), evaluation);
    this.#calls.set(key.callId, decisions);
    while (this.#calls.size > this.capacity) this.#calls.delete(this.#calls.keys().next().value!);
  }

  /** Forgets the decisions of `callId`, once its result is final. */
  forgetCall(callId: string): void {
    this.#calls.delete(callId);
  }

  /** Calls with a recorded decision. */
  get size(): number {
    return this.#calls.size;
  }
}

function inner(key: DecisionKey): string {
  return `${key.toolName}\u0000${key.argumentsHash}`;
}
