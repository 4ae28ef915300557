/** Stable codes of `SafetyError`. */
export type SafetyErrorCode =
  /** A settings file that cannot be read as settings: bad JSON, an unknown key, a bad rule or mode. */
  | 'INVALID_SETTINGS'
  /** A mode more permissive than the managed settings allow, asked for at run time. */
  | 'MODE_LOCKED'
  /** A rule could not be saved to the project settings. */
  | 'SETTINGS_WRITE_FAILED';

/** A mistake in safety's settings or a refused change of them, with a stable `code`. */
export class SafetyError extends Error {
  override readonly name = 'SafetyError';
  readonly code: SafetyErrorCode;

  constructor(code: SafetyErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** True when `error` is a `SafetyError` (with `code`, when given). */
export function isSafetyError(error: unknown, code?: SafetyErrorCode): error is SafetyError {
  return error instanceof SafetyError && (code === undefined || error.code === code);
}
