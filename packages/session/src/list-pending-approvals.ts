import { isHarnessError } from '@weir/core';
import { pendingApprovalsOf, type PendingApproval } from './pending-approvals.js';
import type { SessionStore } from './session-store.js';

/** Sessions read at the same time. */
const READS_AT_ONCE = 8;

export interface ListPendingApprovalsOptions {
  /** Look only in these sessions. Default: every session of `store.list()` (each one is read). */
  readonly sessionIds?: readonly string[];
  /** Also list approvals already answered whose call has not run yet (waiting for a resume). Default false. */
  readonly includeAnswered?: boolean;
}

/**
 * The approvals suspended turns of `store` wait for, oldest request first. Reads each session
 * without its lock (`store.read`), so it works beside live writers, in any process; a session that
 * is damaged, or removed meanwhile, is skipped. Rejects only when the store cannot be listed or read
 * for another reason (`SESSION_WRITE_FAILED` for a database, say), and with `TypeError` for
 * `sessionIds` that are not an array of strings.
 */
export async function listPendingApprovals(store: SessionStore, options: ListPendingApprovalsOptions = {}): Promise<PendingApproval[]> {
  const { sessionIds } = options;
  if (sessionIds !== undefined && !(Array.isArray(sessionIds) && sessionIds.every((id) => typeof id === 'string'))) {
    throw new TypeError('listPendingApprovals: sessionIds must be an array of session ids (strings).');
  }
  const ids = sessionIds ?? (await store.list()).filter((summary) => !summary.corrupt).map((summary) => summary.id);
  const found: PendingApproval[] = [];
  const readOne = async (id: string) => {
    let records;
    try {
      records = await store.read(id);
    } catch (error) {
      if (isHarnessError(error, 'SESSION_NOT_FOUND') || isHarnessError(error, 'SESSION_CORRUPT') || isHarnessError(error, 'INVALID_SESSION_ID')) return;
      throw error;
    }
    for (const pending of pendingApprovalsOf(id, records)) if (options.includeAnswered === true || pending.answer === undefined) found.push(pending);
  };
  // A few reads at a time: a database store answers them in parallel, and none waits on another.
  let next = 0;
  const reader = async () => {
    while (next < ids.length) await readOne(ids[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, ids.length) }, reader));
  return found.sort((a, b) => (a.requestedAt < b.requestedAt ? -1 : a.requestedAt > b.requestedAt ? 1 : 0));
}
