import type { CallRun } from '../tools/call-run.js';
import type { ApprovalMemory } from '../policy/approval.js';
import type { CallContext } from '../tools/call-context.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import type { ToolCallJournal } from './tool-call-journal.js';

/** Gets a run's progress reports; like a `progress` observer, what it throws is logged and changes nothing. */
export type ProgressListener = (update: ToolProgress, context: CallContext) => void;

// What one run of the pipeline is given besides the calls. Its own file so the pipeline reads it
// without importing the harness that drives the pipeline (no circle).

/** Options of `harness.executeToolCall`. */
export interface ExecuteOptions {
  /** Cancels the call: the body's `exec.signal` aborts and the result is `ABORTED`. */
  readonly signal?: AbortSignal;
  /**
   * Approval decisions that outlive this run (an agent passes its session's): a decision stored for
   * the same call id and the same arguments is reused without asking; a fresh answer is recorded,
   * awaited, before the body runs. Without it the responder is asked every time.
   */
  readonly approvals?: ApprovalMemory;
  /** Told when each call is about to run (awaited; a rejection keeps the body from running) and when its result is final. */
  readonly journal?: ToolCallJournal;
  /** Gets this run's progress reports (after the `progress` observers), throttled like theirs. */
  readonly onProgress?: ProgressListener;
  /** The run these calls belong to (an agent's turn). Default: a run made for this invocation, with a fresh id. */
  readonly run?: CallRun;
  /**
   * For the far side of a remote dispatch: `argumentsHash` of the arguments the caller's pipeline
   * approved. When the arguments this pipeline clears hash differently, the body does not run and
   * the call fails `ARGUMENTS_MISMATCH`.
   */
  readonly expectedArgumentsHash?: string;
}

export interface ExecuteManyOptions extends ExecuteOptions {
  /** Calls of the batch running at once. Default 8. */
  readonly concurrency?: number;
}
