/**
 * A hook group's `matcher`, as Claude Code reads it: omitted, `""` or `"*"` match everything; a
 * value of only letters, digits, `_`, `-`, spaces, `,` and `|` is a list of exact names; anything
 * else is a JavaScript regular expression, unanchored.
 */
export interface HookMatcher {
  readonly source: string | undefined;
  matches(names: readonly string[]): boolean;
}

const EXACT = /^[A-Za-z0-9_\- ,|]*$/;
const EVERYTHING: HookMatcher = Object.freeze({ source: undefined, matches: () => true });

/** Compiles a matcher; throws a `SyntaxError`-bearing message for a bad regular expression. */
export function compileMatcher(source: string | undefined): HookMatcher {
  if (source === undefined || source === '' || source === '*') return source === undefined ? EVERYTHING : Object.freeze({ source, matches: () => true });
  if (EXACT.test(source)) {
    const names = new Set(source.split(/[|,]/).map((name) => name.trim()).filter((name) => name !== ''));
    return Object.freeze({ source, matches: (candidates: readonly string[]) => candidates.some((name) => names.has(name)) });
  }
  const pattern = new RegExp(source);
  return Object.freeze({ source, matches: (candidates: readonly string[]) => candidates.some((name) => pattern.test(name)) });
}
