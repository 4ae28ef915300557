/** A mistake in how the program was called (an unknown flag, a flag without its value): exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
