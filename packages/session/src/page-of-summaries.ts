import { byUpdatedDescending, type ListingKey } from './summarize-session.js';
import type { ListSessionsOptions } from './session-store.js';

/**
 * The page `options` ask for of summaries (or their keys alone: a store may page before it summarizes) sorted by `byUpdatedDescending`: those after `after` in
 * that order, at most `limit`. Throws `TypeError` for options a caller got wrong (the store's
 * `list` rejects with it).
 */
export function pageOfSummaries<T extends ListingKey>(sorted: readonly T[], options: ListSessionsOptions | undefined): T[] {
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
function firstAfter(sorted: readonly ListingKey[], after: ListingKey): number {
  const probe: ListingKey = { updated: after.updated, id: after.id };
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byUpdatedDescending(sorted[middle]!, probe) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
