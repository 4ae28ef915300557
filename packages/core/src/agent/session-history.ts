import type { ApprovalLedger } from './approval-ledger.js';
import type { Message, ModelToolCall } from './model.js';

/** What the model reads for a call that started and has no result. */
export const INTERRUPTED_CALL_CONTENT =
  'interrupted: outcome unknown — the call may or may not have taken effect; check before retrying';

/** What the model reads for a call that was requested but never started (its body never ran). */
export const UNSTARTED_CALL_CONTENT = 'interrupted: the call never started, so it had no effect; call it again if it is still needed';

/** A requested call without a result, answered in the history with an error tool message. */
export interface InterruptedCall {
  readonly callId: string;
  readonly toolName: string;
  /** The arguments it started with, or those the model sent when it never started. */
  readonly arguments: unknown;
  /** True when `tool_call_started` was recorded: the body may have run. */
  readonly started: boolean;
}

export interface RebuildHistoryOptions {
  /**
   * What to do with calls of the last assistant message that never started, when no turn ended
   * after it: `'answer'` (default) answers them with `UNSTARTED_CALL_CONTENT`; `'leave'` leaves them
   * unanswered, in `pending`, for an agent that resumes the turn by running them (reusing stored
   * approvals). Calls that started without a result are always answered as interrupted.
   */
  readonly pending?: 'answer' | 'leave';
}

export interface SessionHistory {
  /** The history for the model, oldest first: every assistant tool call is answered right after it (except `pending`). */
  readonly messages: readonly Message[];
  /** Stored approval decisions: reuse them, never ask again. */
  readonly approvals: ApprovalLedger;
  /** Calls answered here with a synthetic error because no result was recorded. */
  readonly interrupted: readonly InterruptedCall[];
  /** With `pending: 'leave'`: calls of the last assistant message still to run, in call order. */
  readonly pending: readonly ModelToolCall[];
  /**
   * True when records follow the last `turn_end` (the process stopped in the middle of a turn), or
   * when that `turn_end` is `awaiting_approval` (the turn suspended: its waiting calls are `pending`).
   */
  readonly turnOpen: boolean;
}
