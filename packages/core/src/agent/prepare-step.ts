import type { ToolSchema } from '../tools/tool-registry.js';
import { failureResult, type ToolFailure } from '../tools/tool-result.js';
import type { LanguageModel, Message, ModelCallOptions, ModelToolCall } from './model.js';
import { checkCallOptions } from './merge-call-options.js';

/** What `prepareStep` is shown before each model call. */
export interface StepPreparation {
  /** 1 for the turn's first model call. */
  readonly step: number;
  /** The history so far (the agent's own array: read it, never change it). */
  readonly messages: readonly Message[];
  /** The agent's model. */
  readonly model: LanguageModel;
  /** Every tool of the registry, in its model view. */
  readonly tools: readonly ToolSchema[];
}

/** What `prepareStep` may choose for one step. Anything left out is the agent's default. */
export interface StepPlan {
  /** Names of the tools offered at this step (a subset of the registry). A call to any other is refused like an unknown tool. */
  readonly tools?: readonly string[];
  /** The model this step calls. */
  readonly model?: LanguageModel;
  /** This step's call options, field by field over the agent's `modelOptions`. */
  readonly options?: ModelCallOptions;
}

/**
 * Chooses the tools and the model of one step from the history so far. Sync or async; `undefined`
 * keeps the defaults. What it throws rejects the turn with `POLICY_FAILED` before the step's model
 * call, the history as it was.
 */
export type PrepareStep = (preparation: StepPreparation) => StepPlan | undefined | Promise<StepPlan | undefined>;

/** A step as the loop runs it: the model, the tools sent, and the names a call may use (`undefined`: any). */
export interface PlannedStep {
  readonly model: LanguageModel;
  readonly tools: readonly ToolSchema[];
  readonly offered: ReadonlySet<string> | undefined;
  /** The step's own call options (before merging with the agent's). */
  readonly options?: ModelCallOptions;
  /** What a call to a tool not offered is told (tool search says to search); default: the tools offered. */
  readonly refusal?: (name: string) => string;
}

/** Applies a plan: the named tools that exist, in registry order (a name the registry lacks is not offered). */
export function plannedStep(plan: StepPlan | undefined, model: LanguageModel, tools: readonly ToolSchema[]): PlannedStep {
  const chosen = plan?.model ?? model;
  if (plan?.model !== undefined && typeof plan.model.complete !== 'function') throw new TypeError('prepareStep returned a model without complete().');
  const options = plan?.options === undefined ? undefined : checkCallOptions(plan.options, 'prepareStep options');
  if (plan?.tools === undefined) return options === undefined ? { model: chosen, tools, offered: undefined } : { model: chosen, tools, offered: undefined, options };
  if (!Array.isArray(plan.tools)) throw new TypeError('prepareStep returned tools that are not an array of names.');
  const offered = new Set<string>(plan.tools);
  const chosenTools = tools.filter((tool) => offered.has(tool.name));
  return options === undefined ? { model: chosen, tools: chosenTools, offered } : { model: chosen, tools: chosenTools, offered, options };
}

/**
 * The calls of an answer split by what the step offered: those that run, and a `TOOL_NOT_FOUND`
 * result (as for an unknown tool, naming what was offered) for each of the others, by position.
 * `undefined` when every call was offered.
 */
export function refuseUnoffered(calls: readonly ModelToolCall[], step: PlannedStep): { runnable: ModelToolCall[]; refused: Map<number, ToolFailure> } | undefined {
  const offered = step.offered;
  if (offered === undefined || calls.every((call) => offered.has(call.name))) return undefined;
  const runnable: ModelToolCall[] = [];
  const refused = new Map<number, ToolFailure>();
  const names = step.tools.map((tool) => tool.name);
  const available = names.length === 0 ? 'No tools are available at this step.' : `Available tools at this step: ${names.join(', ')}.`;
  calls.forEach((call, index) => {
    if (offered.has(call.name)) runnable.push(call);
    else {
      const name = call.name.length > 100 ? `${call.name.slice(0, 100)}...` : call.name;
      const message = step.refusal === undefined ? `There is no tool named "${name}" at this step. ${available}` : step.refusal(name);
      refused.set(index, failureResult({ callId: call.id, toolName: call.name, durationMs: 0, attempts: 0 }, 'TOOL_NOT_FOUND', message));
    }
  });
  return { runnable, refused };
}
