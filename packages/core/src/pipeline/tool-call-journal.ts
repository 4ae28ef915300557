import type { ToolArguments } from '../tools/call-context.js';
import type { ToolTier } from '../tools/define-tool.js';
import type { ToolResult } from '../tools/tool-result.js';

/** A call the pipeline has cleared to run, as its body will get it. */
export interface StartingToolCall {
  readonly callId: string;
  /** The harness's key for this execution: what a durable record keys on (model ids repeat). */
  readonly callKey: string;
  readonly toolName: string;
  /** What safety keys on: a durable record is worth its fsync only before a side effect. */
  readonly tier: ToolTier;
  /** The exact, final, frozen arguments handed to the execute stage. */
  readonly arguments: ToolArguments;
}

/**
 * Told about the calls of one `executeToolCall(s)` run at the two moments a crash-safe record
 * needs (an agent's session passes one). Given per run, not tapped on the harness, so calls of
 * other callers of the same harness are never recorded in it.
 */
export interface ToolCallJournal {
  /**
   * Once per call, after stage 1 cleared it and before the execute stage runs its body. Awaited:
   * when it throws or rejects, the body does not run and the call fails with `NOT_EXECUTED`.
   */
  started(call: StartingToolCall): void | Promise<void>;
  /**
   * Each final result, in call order within a batch, right after the `result` observers. Synchronous
   * like them: an error it throws is logged and changes nothing (report failures another way).
   */
  settled(result: ToolResult): void;
}
