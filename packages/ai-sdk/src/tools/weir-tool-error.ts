import type { ToolFailure } from '@weir/core';

/**
 * What a weir tool's `execute` throws inside the AI SDK when the pipeline's answer is a failure
 * (denied, blocked, invalid arguments, timed out, the body threw): the SDK records a `tool-error`
 * and the model reads `message`, which is the result's model-visible content
 * (`Error [DENIED]: ...`). `result` is the whole weir result, for the application's own handlers.
 */
export class WeirToolError extends Error {
  override readonly name = 'WeirToolError';
  readonly result: ToolFailure;
  /** The stable weir error code (`DENIED`, `INVALID_ARGUMENTS`, a tool's own code...). */
  readonly code: string;

  constructor(result: ToolFailure) {
    super(result.content);
    this.result = result;
    this.code = result.error.code;
  }

  /** AI SDK 7 shows the model `String(error)`: the result's content alone, as AI SDK 6 (which reads `message`) does. */
  override toString(): string {
    return this.message;
  }
}
