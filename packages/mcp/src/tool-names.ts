const SERVER_NAME = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;

/**
 * True when `name` can prefix tool names: letters, digits, `-` and single `_`, so the `__`
 * separator is never ambiguous, and at most 30 characters, so the tool's own name keeps half of
 * the 64 (the core's `namespacedName` rule).
 */
export function isServerName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 30 && SERVER_NAME.test(name);
}
