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
  /**
   * New arguments for the call (a command hook's `updatedInput`). They are validated again against
   * the tool's schema (refused: `INVALID_ARGUMENTS` naming the guard), the guards before this one are
   * asked again about them (they judged the old ones), the guards after it see only them, and the
   * strictest verdict still wins. In that second round a guard's own rewrite is not taken: it counts
   * as `deny`, so two guards cannot hand a call back and forth.
   */
  readonly arguments?: ToolArguments;
}

/** Validates a guard's rewrite; rejects with `GuardRewriteRefused` when the tool's schema refuses it. */
export type GuardRewrite = (args: unknown, by: string) => Promise<ToolArguments>;

/** A guard's rewrite that the tool's schema refused: the call settles `INVALID_ARGUMENTS`. */
export class GuardRewriteRefused extends Error {
  constructor(
    readonly by: string,
    readonly issues: readonly string[],
  ) {
    super(`guard ${by} rewrote the arguments into ones the schema refuses`);
  }
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
  /** The arguments after every guard's rewrite (validated and frozen); `undefined` when none rewrote. */
  readonly arguments?: ToolArguments;
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
   * `observe` (the call is observed), each guard's verdict is told as a `guard` event. A verdict
   * with `arguments` is handed to `rewrite` (without one it is `HookFailure`); see `GuardVerdict`.
   */
  async evaluate(call: GuardCall, context: GuardContext, boundMs = Infinity, observe?: CallObserver, rewrite?: GuardRewrite): Promise<GuardOutcome> {
    const entries = this.#entries;
    let outcome = ALLOW;
    let current = call;
    let rewritten: ToolArguments | undefined;
    for (let index = 0; index < entries.length; index += 1) {
      const { owner } = entries[index]!;
      const verdict = await ask(entries[index]!, current, context, boundMs, observe);
      if (verdict === undefined) continue;
      if (verdict.arguments !== undefined) {
        if (rewrite === undefined) throw new HookFailure('prepareExecution', `guard ${owner}`, new TypeError('answered new arguments where none can be taken'));
        rewritten = await rewrite(verdict.arguments, owner);
        current = Object.freeze({ ...current, arguments: rewritten });
        // The guards before this one judged the old arguments: their verdicts give way to new ones.
        outcome = ALLOW;
        for (let before = 0; before < index && outcome.decision !== 'deny'; before += 1) {
          const again = await ask(entries[before]!, current, context, boundMs, observe);
          if (again === undefined) continue;
          const decided: GuardVerdict = again.arguments === undefined ? again : { decision: 'deny', reason: 'it rewrote the arguments again, after another guard rewrote them' };
          outcome = stricter(outcome, decided, entries[before]!.owner);
        }
      }
      outcome = stricter(outcome, verdict, owner);
      if (outcome.decision === 'deny') break;
    }
    return rewritten === undefined ? outcome : { ...outcome, arguments: rewritten };
  }
}

async function ask({ owner, guard }: GuardEntry, call: GuardCall, context: GuardContext, boundMs: number, observe: CallObserver | undefined): Promise<GuardVerdict | undefined> {
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
    return undefined;
  }
  const decision = typeof verdict === 'object' && verdict !== null ? verdict.decision : undefined;
  if (RANK.get(decision) === undefined) {
    throw new HookFailure('prepareExecution', name, new TypeError(`answered ${describeVerdict(verdict)}; expected { decision: 'allow' | 'ask' | 'deny' }`));
  }
  observe?.({ type: 'guard', guard: owner, decision: decision as GuardDecision, reason: typeof verdict.reason === 'string' ? verdict.reason : undefined, durationMs: since(began) });
  return verdict;
}

function stricter(outcome: GuardOutcome, verdict: GuardVerdict, owner: string): GuardOutcome {
  if (RANK.get(verdict.decision)! <= RANK.get(outcome.decision)!) return outcome;
  return { decision: verdict.decision, reason: typeof verdict.reason === 'string' ? verdict.reason : undefined, by: owner };
}

function describeVerdict(verdict: unknown): string {
  try {
    return JSON.stringify(verdict)?.slice(0, 200) ?? String(verdict);
  } catch {
    return typeof verdict;
  }
}
