import { rebuildHistory } from './rebuild-history.js';
import type { SessionRecord } from '@weir/core';
import type { SessionSummary } from './session-store.js';

const TITLE_CHARS = 80;

/**
 * A listing entry from a session's records. `fallbackTime` (ISO 8601) stands in for the times when
 * there are no records (an empty or damaged file). Never throws.
 */
export function summarizeSession(id: string, records: readonly SessionRecord[], fallbackTime: string, corrupt = false): SessionSummary {
  const meta = records[0]?.type === 'session' ? records[0] : undefined;
  const firstUser = records.find((r) => r.type === 'message' && r.message.role === 'user');
  const title = meta?.title ?? (firstUser?.type === 'message' ? shorten(firstUser.message.content) : undefined);
  return {
    id,
    created: meta?.created ?? fallbackTime,
    updated: records.at(-1)?.at ?? fallbackTime,
    messageCount: rebuildHistory(records).messages.length,
    title,
    forkedFrom: meta?.forkedFrom,
    corrupt,
  };
}

function shorten(text: string): string | undefined {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? '';
  if (line === '') return undefined;
  const chars = [...line];
  return chars.length <= TITLE_CHARS ? line : `${chars.slice(0, TITLE_CHARS - 1).join('')}…`;
}

/** What orders a listing: a session's id and the time of its last record. */
export interface ListingKey {
  readonly updated: string;
  readonly id: string;
}

/** Sorts summaries most recently updated first (ISO 8601 strings of one format compare as times). */
export function byUpdatedDescending(a: ListingKey, b: ListingKey): number {
  return a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.id < b.id ? 1 : -1;
}
