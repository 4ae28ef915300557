import * as path from 'node:path';

/**
 * True when `candidate` is `root` or below it. Both must be canonical (realpath) absolute paths:
 * this is the separator-aware check of docs/reliability.md 1.1 rule 2, so `/ws_evil` is not inside `/ws`
 * (a bare `startsWith` says it is). Pure, never throws.
 */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * `candidate` relative to `root` with `/` separators, `.` for the root itself, or `undefined`
 * when it is not inside. Pure, never throws.
 */
export function relativeInside(root: string, candidate: string): string | undefined {
  if (!isInside(root, candidate)) return undefined;
  const relative = path.relative(root, candidate);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}
