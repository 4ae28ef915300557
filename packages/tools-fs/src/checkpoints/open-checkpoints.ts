import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { rewindTarget, sessionTurns, type Logger, type Plugin, type Session } from '@weir/core';
import { FsError } from '../fs-error.js';
import { Workspace } from '../confinement/workspace.js';
import { BlobStore } from './blob-store.js';
import { CheckpointError } from './checkpoint-error.js';
import { CheckpointIndex } from './checkpoint-index.js';
import { CheckpointLog, type RewindScope } from './checkpoint-log.js';
import { CheckpointRecorder } from './checkpoint-recorder.js';
import { checkpointsPlugin } from './checkpoints-plugin.js';
import { readFileState } from './read-file-state.js';
import { sameState, type FileState } from './file-state.js';
import { readJournal, removeJournal, writeJournal, type JournalStep, type RewindJournal } from './rewind-journal.js';
import { runJournal, type RewindConflict, type RewindReport, type StepHook } from './run-journal.js';
import { CommandSnapshotter, type ShellCheckpointOptions } from './command-snapshotter.js';

/** Options of `openCheckpoints`. */
export interface CheckpointsOptions {
  /** The workspace root (the same as `fsTools`'s). */
  readonly root: string;
  /** The session's checkpoint folder (`<sessions>/<id>.checkpoints`): blobs, the log, a rewind's journal. */
  readonly dir: string;
  /** The open session: turns are its user messages, and a conversation rewind is recorded in it. */
  readonly session: Session;
  /** Snapshot the workspace around commands that may write (`run_command`); see the README. Default off. */
  readonly shell?: boolean | ShellCheckpointOptions;
  readonly logger?: Logger;
}

/** One turn as `/rewind` lists it. */
export interface CheckpointTurn {
  readonly turn: number;
  readonly prompt: string;
  /** When the turn's prompt was recorded (ISO 8601). */
  readonly at: string;
  /** The files the turn changed (canonical, relative to the root), sorted. */
  readonly files: readonly string[];
}

/** What `rewind` is asked. */
export interface RewindOptions {
  /** Go back to the state after this turn (0: before the first). */
  readonly toTurn: number;
  /** Default `'both'`. */
  readonly scope?: RewindScope;
  /** Overwrite files changed since weir last wrote them too. Default false: they are reported and left. */
  readonly force?: boolean;
  /** Called before each step (the crash tests stop the process there). */
  readonly onStep?: StepHook;
}

const SCOPES = new Set<RewindScope>(['files', 'conversation', 'both']);
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent } as unknown as Logger;

/**
 * A session's checkpoints: the plugin that keeps them, the turns, `rewind` and `redo`. Opening
 * finishes a rewind that a crash interrupted (`recovered` says what it did). Throws `TypeError` on
 * invalid options and a system error when the folder cannot be read or made.
 */
export async function openCheckpoints(options: CheckpointsOptions): Promise<Checkpoints> {
  if (typeof options?.dir !== 'string' || options.dir === '') throw new TypeError('openCheckpoints: dir must be the folder of the session\'s checkpoints.');
  if (typeof options.session?.records !== 'function') throw new TypeError('openCheckpoints: session must be an open Session.');
  const logger = options.logger ?? silent;
  const workspace = await Workspace.create(options.root);
  await mkdir(options.dir, { recursive: true });
  const blobs = new BlobStore(join(options.dir, 'blobs'));
  const { log, entries } = await CheckpointLog.open(join(options.dir, 'checkpoints.jsonl'), (message) => logger.warn(message));
  const index = new CheckpointIndex();
  for (const entry of entries) index.add(entry);
  const checkpoints = new Checkpoints({ workspace, blobs, log, index, session: options.session, logger, dir: options.dir, shell: options.shell });
  await checkpoints.recover();
  return checkpoints;
}

interface Parts {
  readonly workspace: Workspace;
  readonly blobs: BlobStore;
  readonly log: CheckpointLog;
  readonly index: CheckpointIndex;
  readonly session: Session;
  readonly logger: Logger;
  readonly dir: string;
  readonly shell: boolean | ShellCheckpointOptions | undefined;
}

export class Checkpoints {
  /** Load it on the harness (`harness.use(checkpoints.plugin)`) to keep checkpoints. */
  readonly plugin: Plugin;
  /** What opening finished of an interrupted rewind; `undefined` when there was none. */
  recovered: RewindReport | undefined;
  readonly #parts: Parts;
  readonly #recorder: CheckpointRecorder;
  readonly #shell: CommandSnapshotter | undefined;
  readonly #journalPath: string;
  #busy = false;

  constructor(parts: Parts) {
    this.#parts = parts;
    this.#journalPath = join(parts.dir, 'journal.json');
    this.#recorder = new CheckpointRecorder(parts);
    const shell = parts.shell === undefined || parts.shell === false ? undefined : new CommandSnapshotter(parts.workspace, parts.blobs, this.#recorder, parts.shell === true ? {} : parts.shell, parts.logger, parts.dir);
    this.#shell = shell;
    this.plugin = checkpointsPlugin(this.#recorder, shell);
  }

  /** The turns of the conversation's current line, with the files each changed. */
  turns(): CheckpointTurn[] {
    return sessionTurns(this.#parts.session.records()).map((turn) => ({
      turn: turn.turn,
      prompt: turn.prompt,
      at: turn.at,
      files: [...(this.#parts.index.priors.get(turn.seq)?.keys() ?? [])].sort(),
    }));
  }

  /** True when `redo()` has a rewind to take back. */
  canRedo(): boolean {
    return this.#redoable() !== undefined;
  }

  /**
   * Puts the files the turns after `toTurn` changed back as they were after it (created files
   * removed, deleted ones restored, modes kept) and/or cuts the conversation after it, all or
   * nothing (through a journal). A file whose bytes differ from what weir last wrote is reported in
   * `conflicts` and left, unless `force`. Rejects with `CheckpointError` (`NO_SUCH_TURN`,
   * `INVALID_REWIND`) when nothing can be done, having changed nothing.
   */
  async rewind(options: RewindOptions): Promise<RewindReport> {
    const { toTurn, scope = 'both', force = false, onStep } = options ?? ({} as RewindOptions);
    if (!SCOPES.has(scope)) throw new CheckpointError('INVALID_REWIND', `scope must be 'files', 'conversation' or 'both', not ${JSON.stringify(scope)}.`);
    const records = this.#parts.session.records();
    const turns = sessionTurns(records);
    if (!Number.isInteger(toTurn) || toTurn < 0 || toTurn > turns.length) {
      throw new CheckpointError('NO_SUCH_TURN', `there is no turn ${JSON.stringify(toTurn)} to go back to: the session has turns 1 to ${turns.length} (0 is before the first).`);
    }
    return this.#exclusive(async () => {
      const steps: JournalStep[] = [];
      const conflicts: RewindConflict[] = [];
      if (scope !== 'conversation') {
        const targets = new Map<string, FileState>();
        for (const turn of turns.slice(toTurn)) {
          for (const [path, prior] of this.#parts.index.priors.get(turn.seq) ?? []) if (!targets.has(path)) targets.set(path, prior);
        }
        for (const path of [...targets.keys()].sort()) await this.#plan(path, targets.get(path)!, this.#parts.index.lastWritten.get(path), force, steps, conflicts);
      }
      const toSeq = scope === 'files' ? undefined : rewindTarget(records, toTurn);
      const journal: RewindJournal = {
        kind: 'rewind',
        id: this.#parts.index.nextRewindId(),
        toTurn,
        scope,
        steps,
        ...(toSeq === undefined ? {} : { conversation: { toSeq } }),
        sessionSeq: records.at(-1)?.seq ?? 0,
      };
      return this.#run(journal, conflicts, onStep);
    });
  }

  /**
   * Takes the last rewind back: its files as they were before it, its conversation cut undone.
   * A file changed since the rewind is reported and left unless `force`. Rejects with
   * `CheckpointError('NOTHING_TO_REDO')` when there is no rewind to take back, or a turn ran since.
   */
  async redo(options: { readonly force?: boolean; readonly onStep?: StepHook } = {}): Promise<RewindReport> {
    const entry = this.#redoable();
    if (entry === undefined) throw new CheckpointError('NOTHING_TO_REDO', 'there is no rewind to redo: none was made, it was redone already, or a turn ran after it.');
    return this.#exclusive(async () => {
      const steps: JournalStep[] = [];
      const conflicts: RewindConflict[] = [];
      for (const file of entry.files) await this.#plan(file.path, file.before, file.after, options.force === true, steps, conflicts);
      const records = this.#parts.session.records();
      const journal: RewindJournal = {
        kind: 'redo',
        id: entry.id,
        toTurn: entry.toTurn,
        scope: entry.record === undefined ? 'files' : 'both',
        steps,
        ...(entry.record === undefined ? {} : { conversation: { toSeq: entry.record - 1, undoes: entry.record } }),
        sessionSeq: records.at(-1)?.seq ?? 0,
      };
      const report = await this.#run(journal, conflicts, options.onStep);
      return { ...report, toTurn: sessionTurns(this.#parts.session.records()).length };
    });
  }

  /**
   * Finishes a rewind an earlier process left half done, then starts the shell snapshot's baseline
   * in the background (after the recovery: it takes the files as the recovery left them). Called
   * once, by `openCheckpoints`.
   */
  async recover(): Promise<void> {
    await this.#recoverJournal();
    this.#shell?.start();
  }

  /**
   * Resolves when the shell snapshot's baseline is taken (in the background from the opening on; a
   * command that comes first waits for the rest of it); at once without `shell`. Never rejects.
   */
  baselineTaken(): Promise<void> {
    return this.#shell?.baselineTaken() ?? Promise.resolve();
  }

  /** Stops the shell snapshot's baseline, makes what was kept durable (and the snapshot's index), and closes the log. */
  async close(): Promise<void> {
    await this.#shell?.close();
    await this.#recorder.sync().catch(() => undefined);
    await this.#parts.log.close();
  }

  async #recoverJournal(): Promise<void> {
    const journal = await readJournal(this.#journalPath);
    if (journal === undefined) return;
    const { index } = this.#parts;
    const logged = journal.kind === 'rewind' ? index.rewinds.some((r) => r.id === journal.id) : index.redone.has(journal.id);
    if (logged) {
      await removeJournal(this.#journalPath);
      return;
    }
    this.recovered = await runJournal(journal, this.#deps(undefined));
    this.#parts.logger.warn({ files: this.recovered.files, conflicts: this.recovered.conflicts }, `checkpoints: finished a ${journal.kind} that was interrupted`);
  }

  #redoable() {
    const entry = this.#parts.index.redoable();
    if (entry === undefined) return undefined;
    // A turn after a conversation cut (even one that changed no file) would be lost by a redo.
    if (entry.record !== undefined) {
      const after = this.#parts.session.records().some((r) => r.seq > entry.record! && r.type === 'message' && r.message.role === 'user');
      if (after) return undefined;
    }
    return entry;
  }

  /** One file of a plan: set it unless it holds the target already, or changed since weir wrote it. */
  async #plan(path: string, to: FileState, expected: FileState | undefined, force: boolean, steps: JournalStep[], conflicts: RewindConflict[]): Promise<void> {
    let now: FileState;
    try {
      // Kept in the store: a redo sets it back to this.
      now = await readFileState(this.#parts.workspace, this.#parts.blobs, path, true);
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      conflicts.push({ path, reason: error.message });
      return;
    }
    if (sameState(now, to)) return;
    if (!force && !sameState(now, expected)) {
      conflicts.push({ path, reason: 'it changed since weir last wrote it (by someone else); left as it is (force overwrites it)' });
      return;
    }
    steps.push({ path, from: now, to });
  }

  async #run(journal: RewindJournal, conflicts: RewindConflict[], onStep: StepHook | undefined): Promise<RewindReport> {
    if (journal.steps.length === 0 && journal.conversation === undefined) {
      return { kind: journal.kind, toTurn: journal.toTurn, files: [], conflicts, conversation: false };
    }
    // Every blob the journal names, and the log, durable before the journal exists.
    await this.#recorder.sync();
    await onStep?.(0, 'journal');
    await writeJournal(this.#journalPath, journal);
    try {
      return await runJournal(journal, this.#deps(onStep), conflicts);
    } finally {
      this.#shell?.touched(journal.steps.map((step) => step.path));
    }
  }

  #deps(onStep: StepHook | undefined) {
    const { workspace, blobs, log, session, index } = this.#parts;
    return { workspace, blobs, log, session, journalPath: this.#journalPath, onStep, record: (entry: Parameters<CheckpointIndex['add']>[0]) => index.add(entry) };
  }

  async #exclusive<T>(task: () => Promise<T>): Promise<T> {
    if (this.#busy) throw new CheckpointError('INVALID_REWIND', 'a rewind is already under way in this session; wait for it to finish.');
    this.#busy = true;
    try {
      return await task();
    } finally {
      this.#busy = false;
    }
  }
}
