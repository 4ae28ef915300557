import { byUpdatedDescending } from './summarize-session.js';
import type { ListSessionsOptions, SessionSummary } from './session-store.js';

/**
 * The page `options` ask for of summaries sorted by `byUpdatedDescending`: those after `after` in
 * that order, at most `limit`. Throws `TypeError` for options a caller got wrong (the store's
 * `list` rejects with it).
 */
export function pageOfSummaries(sorted: readonly SessionSummary[], options: ListSessionsOptions | undefined): SessionSummary[] {
  if (options === undefined) return [...sorted];
  checkListOptions(options);
  const { limit, after } = options;
  const start = after === undefined ? 0 : firstAfter(sorted, after);
  return sorted.slice(start, limit === undefined ? undefined : start + limit);
}

/** Throws `TypeError` unless `options` are valid `list` options. */
export function checkListOptions(options: ListSessionsOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('list: options must be an object.');
  const { limit, after } = options;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new TypeError(`list: limit must be a positive integer, got ${String(limit)}.`);
  if (after !== undefined && (typeof after !== 'object' || after === null || typeof after.updated !== 'string' || typeof after.id !== 'string')) {
    throw new TypeError('list: after must be { updated, id }: the last summary of the previous page.');
  }
}

// The first index whose summary sorts after `after` (binary search: the summaries are sorted).
function firstAfter(sorted: readonly SessionSummary[], after: { readonly updated: string; readonly id: string }): number {
  const probe = { updated: after.updated, id: after.id } as SessionSummary;
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byUpdatedDescending(sorted[middle]!, probe) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
