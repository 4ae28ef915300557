/** Stable codes of `ExtensionsError`. */
export type ExtensionsErrorCode = 'INVALID_OPTIONS' | 'UNKNOWN_COMMAND';

/** A programmer's mistake (bad options), thrown when a loader is called; a bad file is a `LoadProblem`, never a throw. */
export class ExtensionsError extends Error {
  override readonly name = 'ExtensionsError';
  constructor(
    readonly code: ExtensionsErrorCode,
    message: string,
  ) {
    super(message);
  }
}
