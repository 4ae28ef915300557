/**
 * Replaces every occurrence of each secret (4 characters or more) in `text` with `[redacted]`:
 * nothing the server sent reaches an error message without passing here. Never throws.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  }
  return result;
}
