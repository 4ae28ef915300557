/** Stable codes of `HooksError`. */
export type HooksErrorCode = 'INVALID_HOOKS' | 'INVALID_OPTIONS';

/** A programmer's or a settings file's mistake, thrown when the hooks are read (never during a call). */
export class HooksError extends Error {
  override readonly name = 'HooksError';
  constructor(
    readonly code: HooksErrorCode,
    message: string,
  ) {
    super(message);
  }
}
