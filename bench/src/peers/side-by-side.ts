import { median } from '../measure.js';
import type { StepPlan } from './step-plan.js';

/**
 * Times a peer's turn and the bare loop's turn side by side in one process. The machine is shared
 * and noisy, so neither is measured alone: batches of the two alternate (which goes first swaps
 * every round), each batch is long enough that the timer and one stray scavenge do not dominate,
 * and the figures are medians over rounds. Garbage collection is not forced between batches: the
 * collector's work is part of what a loop that allocates more costs.
 */

/** Runs one turn of at most `k` tool steps; the plan has already been begun. */
export type TurnFn = (k: number) => Promise<unknown>;

export interface SideBySideOptions {
  /** Untimed turns of both loops before calibration, so the JIT has settled. */
  readonly warmupMs: number;
  /** Wall time spent on timed rounds (stops earlier once `maxRounds` is reached). */
  readonly measureMs: number;
  /** Target wall time of one batch; sets how many turns a batch holds. */
  readonly batchMs: number;
  readonly minRounds: number;
  readonly maxRounds: number;
}

export interface SideBySideResult {
  readonly k: number;
  /** Median over rounds of the peer's turn time / K, in microseconds. */
  readonly perStepUs: number;
  /** The same for the bare loop, measured in the same rounds. */
  readonly bareUs: number;
  /**
   * Median over rounds of (peer batch / the bare batch beside it): pairing batches that ran a few
   * milliseconds apart cancels noise that drifts during the run better than a ratio of medians.
   */
  readonly ratio: number;
  readonly rounds: number;
  readonly peerTurnsPerBatch: number;
  readonly bareTurnsPerBatch: number;
}

/** Runs `turns` turns and checks each did exactly K steps; returns microseconds per step. */
async function timeBatch(plan: StepPlan, who: string, turn: TurnFn, k: number, turns: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < turns; i++) {
    plan.begin(k);
    await turn(k);
    plan.assertTurn(k, who);
  }
  return ((performance.now() - start) * 1000) / (turns * k);
}

/** Runs turns for `ms` and returns the mean wall time of one turn in milliseconds. */
async function warm(plan: StepPlan, who: string, turn: TurnFn, k: number, ms: number): Promise<number> {
  const start = performance.now();
  let turns = 0;
  do {
    plan.begin(k);
    await turn(k);
    plan.assertTurn(k, who);
    turns++;
  } while (performance.now() - start < ms);
  return (performance.now() - start) / turns;
}

/**
 * The bare loop alone, measured the same way, before the peer is even imported: compared with
 * the side-by-side bare figure it shows whether merely loading and running the peer slows every
 * promise in the process (a library that turns on async context tracking does). It runs at another
 * moment than the paired rounds, so noise is not cancelled: more rounds make up for some of that.
 */
export async function timeAlone(plan: StepPlan, bare: TurnFn, k: number, options: SideBySideOptions): Promise<number> {
  const turnMs = await warm(plan, 'bare', bare, k, options.warmupMs / 4);
  const turns = Math.max(1, Math.round(options.batchMs / turnMs));
  const samples: number[] = [];
  for (let round = 0; round < options.minRounds * 3; round++) samples.push(await timeBatch(plan, 'bare', bare, k, turns));
  return median(samples);
}

export async function timeSideBySide(
  plan: StepPlan,
  peerName: string,
  peer: TurnFn,
  bare: TurnFn,
  k: number,
  options: SideBySideOptions,
): Promise<SideBySideResult> {
  const peerTurnMs = await warm(plan, peerName, peer, k, options.warmupMs);
  const bareTurnMs = await warm(plan, 'bare', bare, k, options.warmupMs / 4);
  const peerTurns = Math.max(1, Math.round(options.batchMs / peerTurnMs));
  const bareTurns = Math.max(1, Math.round(options.batchMs / bareTurnMs));

  const peerSamples: number[] = [];
  const bareSamples: number[] = [];
  const start = performance.now();
  let round = 0;
  while (
    round < options.minRounds ||
    (round < options.maxRounds && performance.now() - start < options.measureMs)
  ) {
    if (round % 2 === 0) {
      peerSamples.push(await timeBatch(plan, peerName, peer, k, peerTurns));
      bareSamples.push(await timeBatch(plan, 'bare', bare, k, bareTurns));
    } else {
      bareSamples.push(await timeBatch(plan, 'bare', bare, k, bareTurns));
      peerSamples.push(await timeBatch(plan, peerName, peer, k, peerTurns));
    }
    round++;
  }
  const ratios = peerSamples.map((p, i) => p / bareSamples[i]!);
  return {
    k,
    perStepUs: median([...peerSamples]),
    bareUs: median([...bareSamples]),
    ratio: median(ratios),
    rounds: round,
    peerTurnsPerBatch: peerTurns,
    bareTurnsPerBatch: bareTurns,
  };
}
