/**
 * Stable codes of programmer mistakes. Tests assert the code, never the message.
 * Model and tool mistakes never throw: they become error `ToolResult`s instead.
 */
export type HarnessErrorCode =
  | 'INVALID_TOOL'
  | 'INVALID_TOOL_NAME'
  | 'INVALID_SCHEMA'
  | 'DUPLICATE_TOOL'
  | 'INVALID_PLUGIN'
  | 'PLUGIN_ALREADY_LOADED'
  | 'PLUGIN_DEPENDENCY_MISSING'
  | 'PLUGIN_IN_USE'
  | 'PLUGIN_SETUP_FAILED'
  | 'PLUGIN_DISPOSE_FAILED'
  | 'PLUGIN_UNLOADED'
  | 'PLUGIN_NOT_FOUND'
  | 'INVALID_TAP'
  | 'SLOT_TAKEN'
  | 'HARNESS_CLOSED'
  | 'INVALID_MODEL_RESPONSE'
  | 'MODEL_CALL_FAILED'
  | 'AGENT_BUSY'
  | 'SESSION_CORRUPT'
  | 'SESSION_LOCKED'
  | 'SESSION_WRITE_FAILED'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  | 'INVALID_SESSION_ID'
  | 'INVALID_SESSION_RECORD';

/** A programmer mistake, thrown where it is made (usually at registration), with a stable `code`. */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  readonly code: HarnessErrorCode;

  constructor(code: HarnessErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** True for a `HarnessError`, optionally with the given code. */
export function isHarnessError(error: unknown, code?: HarnessErrorCode): error is HarnessError {
  return error instanceof HarnessError && (code === undefined || error.code === code);
}
