import type { CheckpointEntry, RewoundFile } from './checkpoint-log.js';
import type { FileState } from './file-state.js';

/** A finished rewind, as the index keeps it. */
export interface RewindEntry {
  readonly id: number;
  readonly toTurn: number;
  readonly files: readonly RewoundFile[];
  /** The session's rewind record, when the conversation was cut. */
  readonly record: number | undefined;
  /** How many entries the log held when it finished: a `prior` after it means a turn changed files since. */
  readonly position: number;
}

/**
 * What the log says, in memory: each turn's prior states (the first per path), the state weir last
 * left each path in, and the rewinds with whether they were redone.
 */
export class CheckpointIndex {
  /** Turn (the seq of its user message) -> path -> the state before the turn's first change. */
  readonly priors = new Map<number, Map<string, FileState>>();
  /** Path -> the state weir's last write (a tool's, a rewind's or a redo's) left it in. */
  readonly lastWritten = new Map<string, FileState>();
  readonly rewinds: RewindEntry[] = [];
  readonly redone = new Set<number>();
  #entries = 0;
  #lastPrior = -1;

  /** Takes one entry into account, in log order. */
  add(entry: CheckpointEntry): void {
    this.#entries += 1;
    switch (entry.t) {
      case 'prior': {
        let turn = this.priors.get(entry.turn);
        if (turn === undefined) this.priors.set(entry.turn, (turn = new Map()));
        if (!turn.has(entry.path)) turn.set(entry.path, entry.state);
        this.#lastPrior = this.#entries;
        break;
      }
      case 'wrote':
        this.lastWritten.set(entry.path, entry.state);
        break;
      case 'rewind':
        for (const file of entry.files) this.lastWritten.set(file.path, file.after);
        this.rewinds.push({ id: entry.id, toTurn: entry.toTurn, files: entry.files, record: entry.record, position: this.#entries });
        break;
      case 'redo':
        for (const file of entry.files) this.lastWritten.set(file.path, file.after);
        this.redone.add(entry.of);
        break;
    }
  }

  /** The last rewind, when no redo took it back and no turn changed a file after it. */
  redoable(): RewindEntry | undefined {
    const last = this.rewinds.at(-1);
    if (last === undefined || this.redone.has(last.id) || this.#lastPrior > last.position) return undefined;
    return last;
  }

  /** The id the next rewind gets. */
  nextRewindId(): number {
    return (this.rewinds.at(-1)?.id ?? 0) + 1;
  }
}
