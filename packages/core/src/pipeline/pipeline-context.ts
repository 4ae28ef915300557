import type { CallContext } from '../tools/call-context.js';
import type { ProgressListener } from './execute-options.js';

/** What the pipeline keeps for a call beside the public context. Taps see it only as `CallContext`. */
export interface PipelineContext extends CallContext {
  /** `performance.now()` when the call entered the pipeline. */
  readonly startedAt: number;
  /** Cap on model-visible content, in characters. */
  readonly maxContentChars: number;
  /** Cap on one image's bytes in a result. */
  readonly maxImageBytes: number;
  /** Times the body ran so far. */
  attempts: number;
  /** The run's own progress listener (`ExecuteOptions.onProgress`), if any. */
  readonly onProgress: ProgressListener | undefined;
}

/** Milliseconds since the call entered the pipeline, rounded to microseconds. */
export function elapsed(context: PipelineContext): number {
  return Math.round((performance.now() - context.startedAt) * 1000) / 1000;
}

/** The metadata every result of this call carries at this point. */
export function metaOf(context: PipelineContext, resultContext?: readonly string[]) {
  return {
    callId: context.callId,
    toolName: context.toolName,
    durationMs: elapsed(context),
    attempts: context.attempts,
    context: resultContext,
  };
}
