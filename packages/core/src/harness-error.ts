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
  | 'POLICY_FAILED'
  | 'SESSION_CORRUPT'
  | 'SESSION_LOCKED'
  | 'SESSION_FENCED'
  | 'SESSION_WRITE_FAILED'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  | 'INVALID_SESSION_ID'
  | 'INVALID_SESSION_RECORD'
  | 'APPROVAL_NOT_PENDING'
  | 'APPROVAL_MISMATCH';

// A brand in the global symbol registry: a plugin installed from npm may bring its own copy of
// @weir/core, whose HarnessError is another class; `instanceof` would miss it, the brand does not.
const BRAND = Symbol.for('weir.HarnessError');

/** A programmer mistake, thrown where it is made (usually at registration), with a stable `code`. */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  readonly code: HarnessErrorCode;

  constructor(code: HarnessErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /** Recognises a `HarnessError` from any copy of `@weir/core` (by its brand, not its class). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
Object.defineProperty(HarnessError.prototype, BRAND, { value: true });

/** True for a `HarnessError` of any copy of `@weir/core`, optionally with the given code. */
export function isHarnessError(error: unknown, code?: HarnessErrorCode): error is HarnessError {
  return error instanceof HarnessError && (code === undefined || (error as HarnessError).code === code);
}
