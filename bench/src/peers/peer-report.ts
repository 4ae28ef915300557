import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LongRunResult } from './long-run.js';

/**
 * The one JSON line a peer script prints on stdout, and what measurePeers hands to the table.
 * `error` is set instead of figures when a peer could not run (it says exactly what failed).
 */

export interface PeerKResult {
  readonly k: number;
  /** Median µs per step of the peer's turn. */
  readonly perStepUs: number;
  /** Median µs per step of the bare loop, same process, same rounds. */
  readonly bareUs: number;
  /** Median over rounds of peer batch / the bare batch run beside it. */
  readonly ratio: number;
  readonly rounds: number;
  /**
   * The bare loop measured before the peer was imported. Above `bareUs` means the peer, once
   * loaded and run, slows every promise in its process, the host's own code included.
   */
  readonly bareBeforePeerUs: number;
}

export interface PeerReport {
  readonly peer: string;
  readonly version: string;
  readonly node: string;
  readonly results: readonly PeerKResult[];
  /** Live heap bytes per step over the long run (see longRun). */
  readonly heapBytesPerStep: number | null;
  /** The bare loop's figure in the same process: roughly the messages themselves. */
  readonly bareHeapBytesPerStep: number | null;
  readonly longRun?: LongRunResult;
  readonly bareLongRun?: LongRunResult;
  /** Attempts to reach the network during the run (expected 0; see network-guard). */
  readonly networkAttempts?: number;
  readonly notes: string;
  readonly error?: string;
}

/**
 * The installed version of a package, read from its package.json: found by resolving the
 * package's entry and walking up, because not every package exports `./package.json`.
 */
export function installedVersion(packageName: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(packageName)));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === packageName && manifest.version !== undefined) return manifest.version;
    } catch {
      // no package.json at this level: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** Prints the report as the script's only stdout line. */
export function emitReport(report: PeerReport): void {
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
