import { HarnessError, type SessionMeta, type SessionRecord } from '@weir/core';
import { assertSessionId, createSessionId } from './session-id.js';
import type { ForkSessionOptions } from './session-store.js';

/** What a fork starts with: its id, its meta record, and the source records it copies (after the source's meta). */
export interface ForkPlan {
  readonly id: string;
  readonly meta: SessionMeta;
  readonly copied: readonly SessionRecord[];
}

/**
 * Plans a fork of `source` (the records of session `sourceId`) made at `at`, the same for every store.
 * Throws `HarnessError` `SESSION_NOT_FOUND` when the source has no record `throughSeq`, and
 * `INVALID_SESSION_ID` for a bad id.
 */
export function planFork(sourceId: string, source: readonly SessionRecord[], fork: ForkSessionOptions, at: Date): ForkPlan {
  const through = forkPoint(sourceId, source, fork.throughSeq);
  const id = fork.id ?? createSessionId(at.getTime());
  assertSessionId(id);
  const title = fork.title ?? (source[0]?.type === 'session' ? source[0].title : undefined);
  const meta: SessionMeta = {
    type: 'session',
    id,
    created: at.toISOString(),
    forkedFrom: { id: sourceId, seq: through },
    ...(title === undefined ? {} : { title }),
  };
  return { id, meta, copied: source.slice(1, through) };
}

/** The last seq a fork copies. */
function forkPoint(sourceId: string, source: readonly SessionRecord[], throughSeq: number | undefined): number {
  const last = source.length;
  if (throughSeq === undefined) return last;
  if (!Number.isInteger(throughSeq) || throughSeq < 1 || throughSeq > last) {
    throw new HarnessError('SESSION_NOT_FOUND', `Session ${sourceId} has no record ${String(throughSeq)} to fork from (it has 1 to ${last}).`);
  }
  return throughSeq;
}
