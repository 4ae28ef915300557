import type { BudgetName } from './budget.js';
import type { ModelResponse, Usage } from './model.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { AwaitingApproval } from './awaiting-approval.js';

/**
 * Why a turn ended.
 * - `stop`: the model answered without tool calls (the normal end).
 * - `max_steps`: the step budget ran out while the model still wanted tools; the last results are in the history.
 * - `aborted`: the turn's or the agent's signal aborted.
 * - `length`, `content_filter`, `error`: the model's own finish reason; tool calls of that answer were not run.
 * - `budget_exhausted`: the next model call would exceed a limit of `budget` (named in `result.budget`).
 * - `output_invalid`: a structured answer was asked for and the model failed to give a valid one within the bound.
 * - `awaiting_approval`: with `onUnansweredApproval: 'suspend'`, calls needed an approval nobody here
 *   could give; they are stored in the session (`result.awaitingApproval`) and `agent.resume()` in
 *   any process runs them once answered. The turn is open, not over.
 */
export type StopReason = 'stop' | 'max_steps' | 'aborted' | 'length' | 'content_filter' | 'error' | 'budget_exhausted' | 'output_invalid' | 'awaiting_approval';

/** One model call of a turn and what came of its tool calls. */
export interface AgentStep {
  /** 1 for the first model call of the turn. */
  readonly index: number;
  readonly response: ModelResponse;
  /** The id of the model that answered this step (the chosen one of a `fallbackModel`, or `prepareStep`'s). */
  readonly model: string;
  /** One result per tool call of `response`, in call order (empty when it called none). */
  readonly toolResults: readonly ToolResult[];
}

/** What `agent.turn()` resolves to. */
export interface TurnResult {
  /** The text of the turn's last model answer (its refusal when the text is empty); `''` when none. */
  readonly text: string;
  readonly stopReason: StopReason;
  readonly steps: readonly AgentStep[];
  /** Every tool result of the turn, step after step, in call order. Failures included. */
  readonly toolResults: readonly ToolResult[];
  /** Summed over the steps that reported usage; `undefined` when none did. */
  readonly usage: Usage | undefined;
  /** With `budget_exhausted`: the limit the next call would have exceeded. Absent otherwise. */
  readonly budget?: BudgetName;
  /** With `turn(text, { output })` and `stop`: the validated answer. Absent otherwise. */
  readonly output?: unknown;
  /**
   * With `awaiting_approval`: the calls waiting, in the order they were suspended. Their results in
   * `toolResults` are `AWAITING_APPROVAL` failures that are not in the history (the calls are still open).
   */
  readonly awaitingApproval?: readonly AwaitingApproval[];
}
