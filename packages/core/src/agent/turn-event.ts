import type { CallRun } from '../tools/call-context.js';
import type { Logger } from '../logger.js';
import type { ModelRequest, ModelResponse } from './model.js';
import type { TurnResult } from './turn-result.js';

/**
 * What the `turn` observer hook hears about one agent turn, as it happens (synchronously, at the
 * moment it describes). Every turn gets `turn-start` first and `turn-end` (it resolved) or
 * `turn-error` (it rejected) last; each model call gets `model-call-start`, then `model-call-end`
 * or `model-call-error`. The tool calls a model call asked for run after its `model-call-end` and
 * before the next `model-call-start`, on the turn's run (`CallContext.run.id` is `TurnInfo.run.id`),
 * so an observer of both hooks can tell which step asked for which call. The calls `agent.resume()`
 * runs before its first model call come before any model call (step 0).
 *
 * `request.messages` is the agent's live history: read it during the event, never keep or change
 * it. Durations are milliseconds from `performance.now()`, rounded to microseconds.
 */
export type TurnEvent =
  | { readonly type: 'turn-start'; readonly text: string; readonly resumed: boolean }
  /** `modelId`: the model this call goes to (the agent's, or the one `prepareStep` chose for the step). */
  | { readonly type: 'model-call-start'; readonly step: number; readonly modelId: string; readonly request: ModelRequest }
  | { readonly type: 'model-call-end'; readonly step: number; readonly response: ModelResponse; readonly durationMs: number }
  /** `aborted` when the turn's signal ended the call (the turn then ends `aborted`); otherwise the turn rejects with `error`'s `MODEL_CALL_FAILED`. */
  | { readonly type: 'model-call-error'; readonly step: number; readonly error: unknown; readonly aborted: boolean; readonly durationMs: number }
  /**
   * Before step `step`'s model call, the compactor summarised `replaced` messages with a model call
   * of its own (to `modelId`); `response` carries its usage. Told after that call, not around it.
   */
  | { readonly type: 'compaction'; readonly step: number; readonly modelId: string; readonly replaced: number; readonly response: ModelResponse; readonly durationMs: number }
  | { readonly type: 'turn-end'; readonly result: TurnResult; readonly durationMs: number }
  | { readonly type: 'turn-error'; readonly error: unknown; readonly durationMs: number };

/** Which turn an event belongs to; the same frozen object for every event of one turn. */
export interface TurnInfo {
  /** The turn's run: every tool call of the turn carries it. */
  readonly run: CallRun;
  /**
   * The agent's model's `id` (`openai:gpt-4.1-mini`, `mock:rules`). A step may call another one:
   * `model-call-start` names the model each call goes to, and a response's `model` the one that
   * answered when a composite model (`fallbackModel`) chose.
   */
  readonly modelId: string;
  /** The harness's logger. */
  readonly logger: Logger;
}
