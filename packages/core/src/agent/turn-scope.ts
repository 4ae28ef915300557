import type { Harness } from '../harness.js';
import type { CallRun } from '../tools/call-context.js';
import type { AgentEvent } from './agent-event.js';
import type { BudgetMeter } from './budget.js';

/**
 * What a running turn lends the tools it calls, found from their `exec.run`: a subagent tool runs
 * its child on this harness, charges this meter and reports through this listener.
 */
export interface TurnScope {
  readonly harness: Harness;
  readonly budget: BudgetMeter | undefined;
  readonly emit: ((event: AgentEvent) => void) | undefined;
}

/** What a subagent's turn inherits from the call it works for. */
export interface ParentLink {
  readonly budget: BudgetMeter | undefined;
  /** The key of the parent's call: the child's run records it as `parentCallKey`. */
  readonly callKey: string;
}

// Keyed by the turn's run object (the one `exec.run` returns): the entry goes with the run.
const scopes = new WeakMap<CallRun, TurnScope>();

/** Lends `scope` to the calls of `run`. */
export function lendScope(run: CallRun, scope: TurnScope): void {
  scopes.set(run, scope);
}

/** The scope of the turn a call belongs to, or `undefined` for a call outside an agent turn. */
export function scopeOf(run: CallRun): TurnScope | undefined {
  return scopes.get(run);
}

/** The internal option of `createAgent` through which a subagent tool links its child to the parent. Not public API. */
export const PARENT_LINK: unique symbol = Symbol('weir.parentLink');
