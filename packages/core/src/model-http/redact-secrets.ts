const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`. Servers sometimes echo the
 * key they refused; nothing the server sent reaches an error message without passing here.
 * Secrets shorter than 4 characters are ignored (they would shred ordinary words). Never throws.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  return result;
}
