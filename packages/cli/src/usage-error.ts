/** A mistake in how weir was called (an unknown flag, a flag without its value, a bad command): exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
