import { median } from './measure.js';
import type { SideBySideOptions, TurnFn } from './peers/side-by-side.js';
import type { StepPlan } from './peers/step-plan.js';

/** One loop at one K: median µs per step (turn time / K) and its samples, one per round. */
export interface KTiming {
  readonly k: number;
  readonly perStepUs: number;
  readonly bareUs: number;
  /** perStepUs / bareUs. */
  readonly ratio: number;
  readonly rounds: number;
  /** Per-round µs per step, in round order (pairs with the other K's samples of the same round). */
  readonly samples: readonly number[];
  readonly bareSamples: readonly number[];
}

interface Case {
  readonly who: string;
  readonly turn: TurnFn;
  readonly k: number;
  turns: number;
  readonly samples: number[];
}

/**
 * Times a loop and the bare loop at every K in the same rounds: each round runs one batch of each
 * (loop, K) case, in an order that rotates from round to round. Comparing K = 50 with K = 10 then
 * compares samples taken seconds apart, not one phase of a shared machine's load with another.
 * Per step is turn time / K, as in the peers' procedure (side-by-side.ts).
 */
export async function interleaveKs(plan: StepPlan, turn: TurnFn, bare: TurnFn, ks: readonly number[], options: SideBySideOptions): Promise<KTiming[]> {
  const cases: Case[] = ks.flatMap((k) => [
    { who: 'weir', turn, k, turns: 1, samples: [] },
    { who: 'bare', turn: bare, k, turns: 1, samples: [] },
  ]);
  for (const c of cases) {
    const turnMs = await warm(plan, c, options.warmupMs / cases.length);
    c.turns = Math.max(1, Math.round(options.batchMs / turnMs));
  }
  const start = performance.now();
  let round = 0;
  while (round < options.minRounds || (round < options.maxRounds && performance.now() - start < options.measureMs * ks.length)) {
    for (let i = 0; i < cases.length; i += 1) {
      const c = cases[(i + round) % cases.length]!;
      c.samples.push(await batch(plan, c, c.turns));
    }
    round += 1;
  }
  return ks.map((k) => {
    const mine = cases.find((c) => c.k === k && c.who === 'weir')!;
    const theirs = cases.find((c) => c.k === k && c.who === 'bare')!;
    const perStepUs = median([...mine.samples]);
    const bareUs = median([...theirs.samples]);
    return { k, perStepUs, bareUs, ratio: perStepUs / bareUs, rounds: round, samples: mine.samples, bareSamples: theirs.samples };
  });
}

/** The median over rounds of `a[round] / b[round]`: a ratio in which each round's load cancels. */
export function medianOfRatios(a: readonly number[], b: readonly number[]): number {
  return median(a.map((value, index) => value / b[index]!));
}

async function batch(plan: StepPlan, c: Case, turns: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < turns; i += 1) {
    plan.begin(c.k);
    await c.turn(c.k);
    plan.assertTurn(c.k, c.who);
  }
  return ((performance.now() - start) * 1000) / (turns * c.k);
}

async function warm(plan: StepPlan, c: Case, ms: number): Promise<number> {
  const start = performance.now();
  let turns = 0;
  do {
    plan.begin(c.k);
    await c.turn(c.k);
    plan.assertTurn(c.k, c.who);
    turns += 1;
  } while (performance.now() - start < ms);
  return (performance.now() - start) / turns;
}
