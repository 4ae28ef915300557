/** A bundle that cannot be read or recorded; the message is one line naming the file and the key. */
export class BundleError extends Error {
  override readonly name = 'BundleError';
  readonly code = 'BUNDLE_INVALID';
}
