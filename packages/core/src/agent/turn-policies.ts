import type { BudgetMeter } from './budget.js';
import type { HistoryCompactor } from './compact-history.js';
import type { FinalAnswer } from './final-answer.js';
import type { PrepareStep } from './prepare-step.js';
import type { ToolSearchTurn } from './tool-search/tool-search.js';

/**
 * The run policies of one turn, composed: the loop asks each in a fixed order (budget, then
 * compaction, then per-step preparation, then tool search, then the structured answer). A turn without any has none
 * of this at all (`TurnContext.policies` is `undefined`), so its steps do no extra work.
 */
export interface TurnPolicies {
  /** This turn's spend against the agent's budget (and a parent's). */
  readonly budget: BudgetMeter | undefined;
  readonly compactor: HistoryCompactor | undefined;
  readonly prepareStep: PrepareStep | undefined;
  /** This turn's structured answer (`turn(text, { output })`). */
  readonly output: FinalAnswer | undefined;
  /** This turn's tool search (the tools found so far); `undefined` with `toolSearch: { when: 'never' }`. */
  readonly toolSearch: ToolSearchTurn | undefined;
  /** The key of the parent's call, for a subagent's turn. */
  readonly parentCallKey: string | undefined;
}
