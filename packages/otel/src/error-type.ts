/** What `error.type` may hold: a short code-like word (letters, digits, `_`, `.`, `-`), at most 64 characters. */
const SAFE_TYPE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** The value OpenTelemetry's conventions give an error type that cannot be named. */
export const OTHER_ERROR_TYPE = '_OTHER';

/**
 * An `error.type` for a span or a metric: the error's `code` when it is a short code-like word, else
 * its `name` under the same rule, else `_OTHER`. A thrown error's code is whatever a tool or a
 * library put there (a path, a message, a key): anything else than a code is not copied into traces,
 * and the bound keeps a metric's cardinality in check. Takes a code string too. Never throws.
 */
export function errorType(error: unknown): string {
  if (typeof error === 'string') return SAFE_TYPE.test(error) ? error : OTHER_ERROR_TYPE;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && SAFE_TYPE.test(code)) return code;
  const name = error instanceof Error ? error.name : undefined;
  return typeof name === 'string' && SAFE_TYPE.test(name) ? name : OTHER_ERROR_TYPE;
}
