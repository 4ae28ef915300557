import type { ToolArguments } from '../tools/call-context.js';
import { createDisposer, type Disposer } from '../disposer.js';
import type { ToolTier } from '../tools/define-tool.js';
import type { RegisteredToolFiles, ToolSource } from '../tools/tool-registry.js';
import { HarnessError } from '../harness-error.js';
import { HookFailure } from '../plugins/hook-failure.js';
import type { Logger } from '../logger.js';
import type { Sandbox } from './sandbox.js';
import { awaitPlugin, CallAborted } from '../pipeline/await-plugin.js';
import { since, type CallObserver } from '../pipeline/call-event.js';

export type GuardDecision = 'allow' | 'ask' | 'deny';

export interface GuardVerdict {
  readonly decision: GuardDecision;
  /** Shown to the person asked, or to the model when denied. */
  readonly reason?: string;
}

/** The call as guards see it: validated final arguments, after every prepareExecution tap. */
export interface GuardCall {
  readonly callId: string;
  /** The harness's key for this execution (unique across turns and agents). */
  readonly callKey: string;
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

// A Map, not an object: a verdict of 'constructor' or '__proto__' must not find a rank.
const RANK: ReadonlyMap<unknown, number> = new Map<GuardDecision, number>([
  ['allow', 0],
  ['ask', 1],
  ['deny', 2],
]);
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
   * something else than allow, ask or deny throws `HookFailure`: the call fails closed. With
   * `observe` (the call is observed), each guard's verdict is told as a `guard` event.
   */
  async evaluate(call: GuardCall, context: GuardContext, boundMs = Infinity, observe?: CallObserver): Promise<GuardOutcome> {
    let outcome = ALLOW;
    for (const { owner, guard } of this.#entries) {
      let verdict: GuardVerdict | undefined;
      const name = `guard ${owner}`;
      const began = observe === undefined ? 0 : performance.now();
      try {
        verdict = await awaitPlugin(guard(call, context), context.signal, { stage: 'prepareExecution', name, boundMs });
      } catch (error) {
        if (error instanceof CallAborted || error instanceof HookFailure) throw error;
        throw new HookFailure('prepareExecution', name, error);
      }
      if (verdict === undefined) {
        observe?.({ type: 'guard', guard: owner, decision: 'allow', reason: undefined, durationMs: since(began) });
        continue;
      }
      const decision = typeof verdict === 'object' && verdict !== null ? verdict.decision : undefined;
      const rank = RANK.get(decision);
      if (rank === undefined) {
        throw new HookFailure('prepareExecution', name, new TypeError(`answered ${describeVerdict(verdict)}; expected { decision: 'allow' | 'ask' | 'deny' }`));
      }
      observe?.({ type: 'guard', guard: owner, decision: decision as GuardDecision, reason: typeof verdict.reason === 'string' ? verdict.reason : undefined, durationMs: since(began) });
      if (rank > RANK.get(outcome.decision)!) outcome = { decision: decision as GuardDecision, reason: typeof verdict.reason === 'string' ? verdict.reason : undefined, by: owner };
      if (outcome.decision === 'deny') break;
    }
    return outcome;
  }
}

function describeVerdict(verdict: unknown): string {
  try {
    return JSON.stringify(verdict)?.slice(0, 200) ?? String(verdict);
  } catch {
    return typeof verdict;
  }
}
