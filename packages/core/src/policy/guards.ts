import type { ToolArguments } from '../tools/call-context.js';
import { createDisposer, type Disposer } from '../disposer.js';
import type { ToolTier } from '../tools/define-tool.js';
import type { RegisteredToolFiles, ToolSource } from '../tools/tool-registry.js';
import { HarnessError } from '../harness-error.js';
import { HookFailure } from '../plugins/hook-failure.js';
import type { Logger } from '../logger.js';
import type { Sandbox } from './sandbox.js';

export type GuardDecision = 'allow' | 'ask' | 'deny';

export interface GuardVerdict {
  readonly decision: GuardDecision;
  /** Shown to the person asked, or to the model when denied. */
  readonly reason?: string;
}

/** The call as guards see it: validated final arguments, after every prepareExecution tap. */
export interface GuardCall {
  readonly callId: string;
  readonly toolName: string;
  readonly tier: ToolTier;
  readonly arguments: ToolArguments;
  /** What the tool declares about files (its action and path arguments); `undefined` when nothing. */
  readonly files: RegisteredToolFiles | undefined;
  /** Where the tool comes from: the plugin, and the server for a tool brought from elsewhere. */
  readonly source: ToolSource;
}

export interface GuardContext {
  readonly signal: AbortSignal | undefined;
  readonly sandbox: Sandbox | undefined;
  readonly logger: Logger;
}

/** An owner policy. `undefined` means no opinion, which is `allow`. */
export type Guard = (call: GuardCall, context: GuardContext) => GuardVerdict | undefined | Promise<GuardVerdict | undefined>;

/** The strictest verdict of all guards, and the guard that gave it. */
export interface GuardOutcome {
  readonly decision: GuardDecision;
  readonly reason: string | undefined;
  readonly by: string | undefined;
}

interface GuardEntry {
  readonly owner: string;
  readonly guard: Guard;
}

const RANK: Readonly<Record<GuardDecision, number>> = { allow: 0, ask: 1, deny: 2 };
const ALLOW: GuardOutcome = Object.freeze({ decision: 'allow', reason: undefined, by: undefined });

/**
 * Owner policies, monotonic: every guard is asked in the order they were added, the strictest
 * answer wins, and nothing can remove or reorder another owner's guard (only its own disposer).
 */
export class GuardList {
  // Copy on write: an evaluation under way keeps the list it started with.
  #entries: readonly GuardEntry[] = [];

  /** Adds a guard owned by `owner`. The disposer removes exactly this guard. */
  add(owner: string, guard: Guard): Disposer {
    if (typeof owner !== 'string' || owner === '') throw new HarnessError('INVALID_TAP', 'guards.add needs an owner name.');
    if (typeof guard !== 'function') throw new HarnessError('INVALID_TAP', `guards.add("${owner}") needs a function, got ${typeof guard}.`);
    const entry: GuardEntry = { owner, guard };
    this.#entries = [...this.#entries, entry];
    return createDisposer(() => {
      this.#entries = this.#entries.filter((candidate) => candidate !== entry);
    });
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Owners and guards in evaluation order (a snapshot). */
  list(): readonly GuardEntry[] {
    return this.#entries;
  }

  /**
   * Asks every guard. Stops early at `deny` (nothing is stricter). A guard that throws or answers
   * something else than allow, ask or deny throws `HookFailure`: the call fails closed.
   */
  async evaluate(call: GuardCall, context: GuardContext): Promise<GuardOutcome> {
    let outcome = ALLOW;
    for (const { owner, guard } of this.#entries) {
      let verdict: GuardVerdict | undefined;
      try {
        verdict = await guard(call, context);
      } catch (error) {
        throw new HookFailure('prepareExecution', `guard ${owner}`, error);
      }
      if (verdict === undefined) continue;
      const rank = RANK[verdict?.decision];
      if (rank === undefined) {
        throw new HookFailure('prepareExecution', `guard ${owner}`, new TypeError(`answered ${JSON.stringify(verdict)}; expected { decision: 'allow' | 'ask' | 'deny' }`));
      }
      if (rank > RANK[outcome.decision]) outcome = { decision: verdict.decision, reason: verdict.reason, by: owner };
      if (outcome.decision === 'deny') break;
    }
    return outcome;
  }
}
