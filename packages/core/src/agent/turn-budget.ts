import type { CallRun } from '../tools/call-context.js';
import type { BudgetName } from './budget.js';
import type { ModelPrice, Usage } from './model.js';
import { scopeOf } from './turn-scope.js';

/**
 * The budget of the agent turn a tool call belongs to, for a tool that calls a model on the turn's
 * behalf (an MCP server's `sampling/createMessage`): what it spends is the turn's spend.
 */
export interface TurnBudget {
  /** The limit one more model call with `nextInput` tokens of input would exceed, or `undefined` to go on. */
  exhausted(nextInput: number): BudgetName | undefined;
  /** Adds one model call's usage to the turn (and to its parent turn's, for a subagent); `price`: the model's own (`metadata.prices`). */
  charge(modelId: string, usage: Usage, price?: ModelPrice): void;
}

/**
 * The budget of the turn `run` belongs to (`exec.run`), or `undefined` when the call runs outside
 * an agent turn or the turn has no budget. Never throws.
 */
export function turnBudgetOf(run: CallRun | undefined): TurnBudget | undefined {
  if (run === undefined || run === null) return undefined;
  const meter = scopeOf(run)?.budget;
  if (meter === undefined) return undefined;
  return Object.freeze({
    // Charged as a call that does not project the turn's next step (`own` false): it is a side call.
    exhausted: (nextInput: number) => meter.exhausted(nextInput),
    charge: (modelId: string, usage: Usage, price?: ModelPrice) => meter.charge(modelId, usage, false, price),
  });
}
