import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isFileState, type FileState } from './file-state.js';
import type { RewindScope } from './checkpoint-log.js';

/** One file a rewind is about to set: from the state it holds now to the one it should hold. */
export interface JournalStep {
  readonly path: string;
  readonly from: FileState;
  readonly to: FileState;
}

/**
 * A rewind (or redo) in progress, written whole and durably before it touches anything, removed
 * once it is done. Every blob it names is durable before it is written, so whoever finds it (the
 * next open) can always finish it: a step whose file holds `to` is done, one that holds `from` is
 * applied, anything else was changed meanwhile and is left and reported.
 */
export interface RewindJournal {
  readonly kind: 'rewind' | 'redo';
  /** The rewind's id, or for a redo the id of the rewind it undoes. */
  readonly id: number;
  readonly toTurn: number;
  readonly scope: RewindScope;
  readonly steps: readonly JournalStep[];
  /** The conversation cut to append, when the conversation is part of it. */
  readonly conversation?: { readonly toSeq: number; readonly undoes?: number };
  /** The session's last seq when the journal was written: a rewind record after it is this one's. */
  readonly sessionSeq: number;
}

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY, O_DIRECTORY } = constants;

/** Writes the journal durably (temporary file, fsync, rename, directory fsync). Throws a system error. */
export async function writeJournal(path: string, journal: RewindJournal): Promise<void> {
  const temp = join(dirname(path), `.journal-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
  try {
    await handle.writeFile(JSON.stringify(journal));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  await syncDirectory(dirname(path));
}

/** The journal left by an interrupted rewind, or `undefined`. Throws on a journal that does not parse (never written torn: it is renamed into place whole). */
export async function readJournal(path: string): Promise<RewindJournal | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const value = JSON.parse(text) as RewindJournal;
  if (!Array.isArray(value.steps) || !value.steps.every((s) => typeof s.path === 'string' && isFileState(s.from) && isFileState(s.to))) {
    throw new Error(`${path} is not a rewind journal`);
  }
  return value;
}

/** Removes the journal once its rewind is whole, durably. */
export async function removeJournal(path: string): Promise<void> {
  await unlink(path);
  await syncDirectory(dirname(path));
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, O_RDONLY | O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
