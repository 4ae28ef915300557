import { bareTurn } from './bare-loop.js';
import { longRun, type LongRunOptions } from './long-run.js';
import { installNetworkGuard, networkAttempts } from './network-guard.js';
import { emitReport, installedVersion, type PeerKResult } from './peer-report.js';
import { timeAlone, timeSideBySide, type SideBySideOptions, type TurnFn } from './side-by-side.js';
import { StepPlan } from './step-plan.js';

/**
 * The driver both peer scripts share, so the two are measured by the same procedure: guard the
 * network, time the bare loop alone, build the peer (its import included, so a peer that cannot
 * load on this Node version is reported rather than crashing the script), time K = 10 and K = 50
 * beside the bare loop, then one long turn of each for memory, and print one JSON line.
 */

export interface PeerSetup {
  /** The turn function, with the peer's agent, model and tools built once, outside the timing. */
  readonly turn: TurnFn;
  /** What the reader should know about how the peer was driven. */
  readonly notes: string;
}

export interface PeerDefinition {
  readonly peer: string;
  /** The npm package whose installed version the report quotes. */
  readonly packageName: string;
  readonly setup: (plan: StepPlan) => Promise<PeerSetup>;
}

const KS = [10, 50] as const;
const USER_TEXT = 'echo hello until done';

/** `--quick` shortens everything, for checking the script works; figures from it are rough. */
const QUICK = process.argv.includes('--quick');

const TIMING: SideBySideOptions = QUICK
  ? { warmupMs: 150, measureMs: 400, batchMs: 5, minRounds: 5, maxRounds: 50 }
  : { warmupMs: 600, measureMs: 2500, batchMs: 10, minRounds: 21, maxRounds: 400 };

const LONG_RUN: LongRunOptions = QUICK
  ? { steps: 1000, budgetMs: 1500, heapBudgetBytes: 256 * 1024 * 1024 }
  : { steps: 10_000, budgetMs: 6000, heapBudgetBytes: 1024 * 1024 * 1024 };

export async function runPeerBench(definition: PeerDefinition): Promise<void> {
  installNetworkGuard();
  const base = { peer: definition.peer, node: process.version };
  let version = 'unknown';
  try {
    version = installedVersion(definition.packageName);
    const plan = new StepPlan();
    const bare: TurnFn = () => bareTurn(plan, USER_TEXT);
    const bareBeforePeer = new Map<number, number>();
    for (const k of KS) bareBeforePeer.set(k, await timeAlone(plan, bare, k, TIMING));

    const { turn, notes } = await definition.setup(plan);
    const results: PeerKResult[] = [];
    for (const k of KS) {
      const r = await timeSideBySide(plan, definition.peer, turn, bare, k, TIMING);
      results.push({
        k: r.k,
        perStepUs: r.perStepUs,
        bareUs: r.bareUs,
        ratio: r.ratio,
        rounds: r.rounds,
        bareBeforePeerUs: bareBeforePeer.get(k) ?? Number.NaN,
      });
    }
    const bareLongRun = await longRun(plan, bare, LONG_RUN);
    const peerLongRun = await longRun(plan, turn, LONG_RUN);

    emitReport({
      ...base,
      version,
      results,
      heapBytesPerStep: finiteOrNull(peerLongRun.heapBytesPerStep),
      bareHeapBytesPerStep: finiteOrNull(bareLongRun.heapBytesPerStep),
      longRun: peerLongRun,
      bareLongRun,
      networkAttempts: networkAttempts(),
      notes: QUICK ? `QUICK RUN (rough figures). ${notes}` : notes,
    });
  } catch (e) {
    emitReport({
      ...base,
      version,
      results: [],
      heapBytesPerStep: null,
      bareHeapBytesPerStep: null,
      networkAttempts: networkAttempts(),
      notes: 'the peer could not run',
      error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
    });
    process.exitCode = 1;
  }
}

function finiteOrNull(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}
