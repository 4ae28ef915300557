import type { ModelResponse, ModelToolCall } from './model.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { TurnResult } from './turn-result.js';

/**
 * What a turn tells a UI, in order: `turn-start`, then per step `model-call-start`, any
 * `text-delta`s (only when the model streams), `model-call-end`, one `tool-start` per call handed
 * to the pipeline, any `tool-progress` while they run, one `tool-result` per call in call order once the step's batch has settled, and
 * finally `turn-end`. A turn that rejects (the model call or the session failed) ends without
 * `turn-end`. The calls `agent.resume()` runs before its first model call are step 0.
 */
export type AgentEvent =
  /** `resumed` (text `''`) when `agent.resume()` finishes a session's interrupted turn. */
  | { readonly type: 'turn-start'; readonly text: string; readonly resumed?: true }
  | { readonly type: 'model-call-start'; readonly step: number }
  | { readonly type: 'text-delta'; readonly step: number; readonly text: string }
  | { readonly type: 'model-call-end'; readonly step: number; readonly response: ModelResponse }
  | { readonly type: 'tool-start'; readonly step: number; readonly call: ModelToolCall }
  /** A running call's `exec.progress` report, as it happens (throttled), always before the call's `tool-result`. */
  | { readonly type: 'tool-progress'; readonly step: number; readonly callId: string; readonly toolName: string; readonly update: ToolProgress }
  | { readonly type: 'tool-result'; readonly step: number; readonly call: ModelToolCall; readonly result: ToolResult }
  | { readonly type: 'turn-end'; readonly result: TurnResult }
  /** The older steps were replaced by a summary before this step's model call (`compact`). */
  | { readonly type: 'compaction'; readonly step: number; readonly replaced: number; readonly summary: string }
  /** An event of a subagent's turn (`agentTool`), under the parent's call that runs it, between its `tool-start` and `tool-result`. */
  | { readonly type: 'subagent'; readonly callId: string; readonly toolName: string; readonly event: AgentEvent };

/**
 * Receives the events of a turn, synchronously: a returned promise is not awaited, and an error
 * it throws is logged on the harness's logger and changes nothing (a UI bug must not break a turn).
 */
export type AgentEventListener = (event: AgentEvent) => void;
