import type { Session } from '@weir/core';
import { FsError } from '../fs-error.js';
import type { Workspace } from '../confinement/workspace.js';
import type { BlobStore } from './blob-store.js';
import type { CheckpointEntry, CheckpointLog, RewoundFile } from './checkpoint-log.js';
import { readFileState, applyFileState } from './read-file-state.js';
import { sameState } from './file-state.js';
import { removeJournal, type RewindJournal } from './rewind-journal.js';

/** A file a rewind did not set, and why. */
export interface RewindConflict {
  readonly path: string;
  readonly reason: string;
}

/** What a rewind, a redo or an open that finished one did. */
export interface RewindReport {
  readonly kind: 'rewind' | 'redo';
  readonly toTurn: number;
  /** Paths set back (restored, recreated or removed), sorted. */
  readonly files: readonly string[];
  /** Files left as they are: changed since weir last wrote them (unless `force`), or unreadable. */
  readonly conflicts: readonly RewindConflict[];
  /** True when the conversation was cut (or, for a redo, put back). */
  readonly conversation: boolean;
}

/** Called before each step of a rewind: 0 before its journal is written, then 1, 2... before each step of the journal. The crash tests kill the process there. */
export type StepHook = (step: number, what: string) => void | Promise<void>;

interface JournalDeps {
  readonly workspace: Workspace;
  readonly blobs: BlobStore;
  readonly log: CheckpointLog;
  readonly session: Session;
  readonly journalPath: string;
  readonly onStep?: StepHook;
  /** Takes the finished entry into the index. */
  readonly record: (entry: CheckpointEntry) => void;
}

/**
 * Carries a journal out to its end, from wherever it stopped: each file step (a file that holds
 * `to` already is done, one that holds `from` is set, anything else is a conflict and left), then the
 * conversation record unless the session has it, then the log entry, then the journal goes. Every
 * step can be repeated, so a run killed at any point is finished by the next run. Throws a system
 * error or a session write failure (the journal stays for the next open).
 */
export async function runJournal(journal: RewindJournal, deps: JournalDeps, conflicts: RewindConflict[] = []): Promise<RewindReport> {
  const { workspace, blobs, onStep } = deps;
  const done: RewoundFile[] = [];
  let step = 1;
  for (const { path, from, to } of journal.steps) {
    await onStep?.(step++, `file ${path}`);
    try {
      const now = await readFileState(workspace, blobs, path, false);
      if (sameState(now, to)) {
        done.push({ path, before: from, after: to });
        continue;
      }
      if (!sameState(now, from)) {
        conflicts.push({ path, reason: 'it changed while the rewind was under way; left as it is' });
        continue;
      }
      await applyFileState(workspace, blobs, path, from, to);
      done.push({ path, before: from, after: to });
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      conflicts.push({ path, reason: error.message });
    }
  }
  let record: number | undefined;
  if (journal.conversation !== undefined) {
    await onStep?.(step++, 'conversation');
    const { toSeq, undoes } = journal.conversation;
    const mine = deps.session.records().find((r) => r.seq > journal.sessionSeq && r.type === 'rewind' && r.toSeq === toSeq);
    record = mine?.seq ?? (await deps.session.append({ type: 'rewind', toSeq, ...(undoes === undefined ? {} : { undoes }) }, { sync: true })).seq;
  }
  await onStep?.(step++, 'log');
  const at = new Date().toISOString();
  const entry: CheckpointEntry =
    journal.kind === 'rewind'
      ? { t: 'rewind', id: journal.id, toTurn: journal.toTurn, scope: journal.scope, files: done, ...(record === undefined ? {} : { record }), at }
      : { t: 'redo', of: journal.id, files: done, ...(record === undefined ? {} : { record }), at };
  await deps.log.append(entry);
  await deps.log.sync();
  deps.record(entry);
  await onStep?.(step++, 'journal');
  await removeJournal(deps.journalPath);
  return {
    kind: journal.kind,
    toTurn: journal.toTurn,
    files: done.map((file) => file.path).sort(),
    conflicts,
    conversation: record !== undefined,
  };
}
