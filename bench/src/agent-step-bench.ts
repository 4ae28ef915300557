import { bareTurn } from './peers/bare-loop.js';
import { liveHeapBytes, longRun, type LongRunOptions, type LongRunResult } from './peers/long-run.js';
import type { PeerReport } from './peers/peer-report.js';
import type { SideBySideOptions, TurnFn } from './peers/side-by-side.js';
import { StepPlan } from './peers/step-plan.js';
import { interleaveKs, medianOfRatios, type KTiming } from './interleave-ks.js';
import { printTable } from './measure.js';
import { stepCostByPosition, type PositionWindow } from './step-cost-by-position.js';
import { weirTurn } from './weir-agent-turn.js';

/** `--quick`: a few seconds, rough figures, for checking the benchmark runs. */
const QUICK = process.argv.includes('--quick');

// The same procedure and settings as the peer scripts (peers/peer-bench.ts), so the figures compare.
const TIMING: SideBySideOptions = QUICK
  ? { warmupMs: 150, measureMs: 400, batchMs: 5, minRounds: 5, maxRounds: 50 }
  : { warmupMs: 700, measureMs: 3000, batchMs: 10, minRounds: 21, maxRounds: 400 };
const LONG_RUN: LongRunOptions = QUICK
  ? { steps: 1000, budgetMs: 1500, heapBudgetBytes: 256 * 1024 * 1024 }
  : { steps: 10_000, budgetMs: 8000, heapBudgetBytes: 1024 * 1024 * 1024 };
const KS = [10, 50] as const;
const LONG_RUNS = QUICK ? 1 : 3;

const TARGET_US_PER_STEP = 20;
const TARGET_K50_OVER_K10 = 1.1;
const TARGET_EXTRA_HEAP_PER_STEP = 1024;
/**
 * A full collection's reading wobbles by tens of KB from run to run (code, feedback vectors, string
 * tables), even over 30 turns of 1,000 steps with no growth: below this, "nothing retained".
 */
const RETAINED_NOISE_BYTES = 128 * 1024;

export interface AgentStepReport {
  readonly results: readonly KTiming[];
  readonly weirLongRun: LongRunResult;
  readonly bareLongRun: LongRunResult;
  /** Live heap per step of the history alone: the agent kept after a long turn, its result dropped. */
  readonly historyBytesPerStep: number;
  /** µs per step by position in a long turn, no collection forced inside it. */
  readonly byPosition: readonly PositionWindow[];
}

/**
 * weir's agent step: K tool steps per turn (K = 10 and 50) with a trivial tool and a mock model,
 * timed side by side with a bare async loop in this process (medians over interleaved rounds), then
 * 10,000-step turns of each (the median of three) for the heap per step, the step cost as the history grows, and what
 * is retained after the turn. Needs `--expose-gc` for the heap figures. Prints a table and the
 * targets; returns the figures (for the comparison with the peers).
 */
export async function agentStepBench(): Promise<AgentStepReport> {
  const plan = new StepPlan();
  const weir = weirTurn(plan);
  const bare: TurnFn = () => bareTurn(plan, 'echo hello until done');

  const results = await interleaveKs(plan, weir.turn, bare, KS, TIMING);

  const bareLongRun = await medianLongRun(plan, bare);
  const weirLongRun = await medianLongRun(plan, weir.turn);
  const historyBytesPerStep = await historyPerStep(plan);
  const byPosition = await stepCostByPosition(plan, weir.turn, LONG_RUN.steps, LONG_RUN.steps / 10, LONG_RUNS);

  const [k10, k50] = results as [KTiming, KTiming];
  console.log(`\nAgent step: weir's loop, K tool steps per turn, beside a bare async loop in the same process${QUICK ? ' (QUICK: rough figures)' : ''}`);
  printTable(
    ['loop', 'K', 'µs/step (median)', 'bare µs/step', 'ratio vs bare', 'rounds'],
    results.map((r) => ['weir createAgent', String(r.k), us(r.perStepUs), us(r.bareUs), `${r.ratio.toFixed(1)}x`, String(r.rounds)]),
  );
  const growth = k50.perStepUs / k10.perStepUs;
  const growthPerRound = medianOfRatios(k50.samples, k10.samples);
  const extraHeap = weirLongRun.heapBytesPerStep - bareLongRun.heapBytesPerStep;
  const firstWindow = byPosition[0];
  const middleWindow = byPosition[byPosition.length >> 1];
  const lastWindow = byPosition.at(-1);
  const positionGrowth = firstWindow && lastWindow ? lastWindow.usPerStep / firstWindow.usPerStep : Number.NaN;
  console.log('');
  printTable(
    ['target', 'measured', 'limit', ''],
    [
      ['µs per step, K = 10', us(k10.perStepUs), `<= ${TARGET_US_PER_STEP}`, verdict(k10.perStepUs <= TARGET_US_PER_STEP)],
      ['µs per step, K = 50', us(k50.perStepUs), `<= ${TARGET_US_PER_STEP}`, verdict(k50.perStepUs <= TARGET_US_PER_STEP)],
      [`per-step cost K = 50 / K = 10, ratio of medians (bare: ${(k50.bareUs / k10.bareUs).toFixed(2)}x)`, `${growth.toFixed(2)}x`, `<= ${TARGET_K50_OVER_K10}x`, verdict(growth <= TARGET_K50_OVER_K10)],
      [`  the same, median of per-round ratios (bare: ${medianOfRatios(k50.bareSamples, k10.bareSamples).toFixed(2)}x)`, `${growthPerRound.toFixed(2)}x`, `<= ${TARGET_K50_OVER_K10}x`, verdict(growthPerRound <= TARGET_K50_OVER_K10)],
      [
        `heap per step beyond the messages (weir ${bytes(weirLongRun.heapBytesPerStep)} - bare ${bytes(bareLongRun.heapBytesPerStep)})`,
        bytes(extraHeap),
        `<= ${bytes(TARGET_EXTRA_HEAP_PER_STEP)}`,
        verdict(extraHeap <= TARGET_EXTRA_HEAP_PER_STEP),
      ],
      [
        `live heap retained after the turn, agent and result dropped (${bytes(weirLongRun.retainedAfterTurnBytes / weirLongRun.steps)} per step)`,
        bytes(weirLongRun.retainedAfterTurnBytes),
        `~0 (< ${bytes(RETAINED_NOISE_BYTES)})`,
        verdict(weirLongRun.retainedAfterTurnBytes < RETAINED_NOISE_BYTES),
      ],
    ],
  );
  console.log(
    [
      `  long run (median of ${LONG_RUNS} by duration): ${weirLongRun.steps} of ${weirLongRun.requestedSteps} steps in one turn, ${weirLongRun.stepSeconds.toFixed(2)} s (${weirLongRun.stoppedBy})`,
      firstWindow && middleWindow && lastWindow
        ? `  µs per step by position in a ${LONG_RUN.steps}-step turn (median of ${LONG_RUNS}, no forced collection): ` +
          [firstWindow, middleWindow, lastWindow].map((w) => `steps ${w.fromStep}-${w.toStep}: ${us(w.usPerStep)}`).join(', ') +
          ` (last / first ${positionGrowth.toFixed(2)}x)`
        : '  µs per step by position: no windows',
      `  the history alone (agent kept, result dropped): ${bytes(historyBytesPerStep)} per step; the bare loop's history: ${bytes(bareLongRun.heapBytesPerStep)} per step`,
      `  bare loop long run: ${bareLongRun.steps} steps, retained after its turn ${bytes(bareLongRun.retainedAfterTurnBytes)}`,
    ].join('\n'),
  );
  return { results, weirLongRun, bareLongRun, historyBytesPerStep, byPosition };
}

/**
 * The long run of median duration out of LONG_RUNS: one 10,000-step turn is a single sample, and a
 * burst of load on a shared machine can land in any of its windows.
 */
async function medianLongRun(plan: StepPlan, turn: TurnFn): Promise<LongRunResult> {
  const runs: LongRunResult[] = [];
  for (let i = 0; i < LONG_RUNS; i += 1) runs.push(await longRun(plan, turn, LONG_RUN));
  runs.sort((a, b) => a.stepSeconds - b.stepSeconds);
  return runs[runs.length >> 1]!;
}

/** The live heap of a long turn's history alone: the agent kept, the turn's result dropped. */
async function historyPerStep(plan: StepPlan): Promise<number> {
  const keeper = weirTurn(plan, true);
  const before = liveHeapBytes();
  plan.begin(LONG_RUN.steps);
  await keeper.turn(LONG_RUN.steps);
  const withHistory = liveHeapBytes();
  const steps = keeper.lastAgent() === undefined ? 0 : plan.toolRuns;
  keeper.forget();
  return steps === 0 ? Number.NaN : (withHistory - before) / steps;
}

/**
 * One line per K: weir beside the peers, each against the bare loop of its own process. Prints
 * nothing for a peer that could not run (the peers' table says why).
 */
export function printAgentStepComparison(weir: AgentStepReport, peers: readonly PeerReport[]): void {
  console.log('\nAgent step side by side (each loop against the bare async loop of its own process)');
  const rows: string[][] = [];
  for (const k of KS) {
    const mine = weir.results.find((r) => r.k === k);
    if (mine !== undefined) rows.push(['weir', String(k), us(mine.perStepUs), `${mine.ratio.toFixed(1)}x`, bytes(weir.weirLongRun.heapBytesPerStep)]);
    for (const peer of peers) {
      const theirs = peer.results.find((r) => r.k === k);
      if (theirs === undefined) continue;
      rows.push([`${peer.peer} ${peer.version}`, String(k), us(theirs.perStepUs), `${theirs.ratio.toFixed(1)}x`, bytes(peer.heapBytesPerStep ?? Number.NaN)]);
      if (mine !== undefined) rows[rows.length - 1]!.push(`${(theirs.perStepUs / mine.perStepUs).toFixed(1)}x weir`);
    }
  }
  printTable(['loop', 'K', 'µs/step', 'vs bare', 'heap/step', 'vs weir'], rows.map((row) => (row.length === 5 ? [...row, '-'] : row)));
}

function us(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3);
}

function bytes(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return Math.abs(n) >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(2)} MB` : Math.abs(n) >= 1024 ? `${(n / 1024).toFixed(2)} KB` : `${Math.round(n)} B`;
}

function verdict(ok: boolean): string {
  return ok ? 'ok' : 'MISSED';
}
