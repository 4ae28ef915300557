import type { Logger, Session } from '@weir/core';
import { FsError } from '../fs-error.js';
import type { Workspace } from '../confinement/workspace.js';
import type { BlobStore } from './blob-store.js';
import type { CheckpointIndex } from './checkpoint-index.js';
import type { CheckpointEntry, CheckpointLog } from './checkpoint-log.js';
import { readFileState } from './read-file-state.js';
import { ABSENT, type FileState } from './file-state.js';

/** How many runs' turns are remembered (a run is an agent turn; bare batches make one each). */
const REMEMBERED_RUNS = 16;

/**
 * Keeps each turn's checkpoint as its calls run: before a call changes a path, the path's state
 * (bytes in the blob store, mode, or absence) unless the turn kept it already; after the call, the
 * state it left (what weir last wrote, so a rewind can tell a change by someone else). A turn is
 * named by the seq of the session's user message that started it.
 */
export class CheckpointRecorder {
  readonly #workspace: Workspace;
  readonly #blobs: BlobStore;
  readonly #log: CheckpointLog;
  readonly #index: CheckpointIndex;
  readonly #session: Session;
  readonly #logger: Logger;
  readonly #turnOfRun = new Map<string, number>();
  /** `${turn}\0${path}` already kept, or being kept. */
  readonly #kept = new Map<string, Promise<void>>();

  constructor(deps: { workspace: Workspace; blobs: BlobStore; log: CheckpointLog; index: CheckpointIndex; session: Session; logger: Logger }) {
    this.#workspace = deps.workspace;
    this.#blobs = deps.blobs;
    this.#log = deps.log;
    this.#index = deps.index;
    this.#session = deps.session;
    this.#logger = deps.logger;
    for (const [turn, paths] of deps.index.priors) for (const path of paths.keys()) this.#kept.set(`${turn}\0${path}`, Promise.resolve());
  }

  /** The turn a run belongs to: the session's last user message when the run first changes a file (0 before any). */
  turnOf(runId: string): number {
    let turn = this.#turnOfRun.get(runId);
    if (turn !== undefined) return turn;
    const records = this.#session.records();
    turn = 0;
    for (let i = records.length - 1; i >= 0; i -= 1) {
      const record = records[i]!;
      if (record.type === 'message' && record.message.role === 'user') {
        turn = record.seq;
        break;
      }
    }
    if (this.#turnOfRun.size >= REMEMBERED_RUNS) this.#turnOfRun.delete(this.#turnOfRun.keys().next().value!);
    this.#turnOfRun.set(runId, turn);
    return turn;
  }

  /**
   * Keeps the prior state of each path the call names, once per turn, and returns the canonical
   * relative paths. A path the workspace refuses is left out (the tool refuses it too). Throws
   * when a state cannot be kept (disk full): the call must not change what it cannot give back.
   */
  async before(turn: number, inputs: readonly string[]): Promise<string[]> {
    const paths: string[] = [];
    for (const input of inputs) {
      const located = await this.#workspace.locate(input, 'write');
      if (!located.ok) continue;
      const path = located.relativePath;
      paths.push(path);
      // Located missing: its prior is absence, known without locating it again.
      await this.keepPrior(turn, path, located.stat === undefined ? ABSENT : undefined);
    }
    return paths;
  }

  /** Keeps `path`'s state as the turn's prior, unless the turn has one (the first wins). */
  keepPrior(turn: number, path: string, known?: FileState): Promise<void> {
    const key = `${turn}\0${path}`;
    let kept = this.#kept.get(key);
    if (kept === undefined) {
      kept = (async () => {
        let state: FileState;
        try {
          state = known ?? (await readFileState(this.#workspace, this.#blobs, path, true));
        } catch (error) {
          if (error instanceof FsError) return; // not a file weir can write: the tool refuses it too
          throw error;
        }
        await this.#append({ t: 'prior', turn, path, state });
      })();
      this.#kept.set(key, kept);
      kept.catch(() => this.#kept.delete(key));
    }
    return kept;
  }

  /**
   * Records the state each path is left in: the one the tool reported writing (`written`), else
   * read back. Failures are logged: the call's result stands.
   */
  async after(turn: number, paths: readonly string[], written?: ReadonlyMap<string, FileState>): Promise<void> {
    for (const path of paths) {
      try {
        await this.wrote(turn, path, written?.get(path) ?? (await readFileState(this.#workspace, this.#blobs, path, false)));
      } catch (error) {
        this.#logger.warn({ err: error, path }, 'checkpoints: the state a call left could not be read; a later rewind will report this file as changed');
      }
    }
  }

  /** Records that weir left `path` in `state`. */
  async wrote(turn: number, path: string, state: FileState): Promise<void> {
    await this.#append({ t: 'wrote', turn, path, state });
  }

  /** Makes the blobs and the log durable (at the end of a turn, and before a rewind). */
  async sync(): Promise<void> {
    await this.#blobs.sync();
    await this.#log.sync();
  }

  async #append(entry: CheckpointEntry): Promise<void> {
    this.#index.add(entry);
    await this.#log.append(entry);
  }
}
