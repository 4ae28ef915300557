import { median } from './measure.js';
import type { TurnFn } from './peers/side-by-side.js';
import type { StepPlan } from './peers/step-plan.js';

/** µs per step over one window of a long turn. */
export interface PositionWindow {
  readonly fromStep: number;
  readonly toStep: number;
  readonly usPerStep: number;
}

/**
 * The step cost by position in one long turn: `steps` tool steps timed in windows of `window`
 * steps, with no forced collection inside the turn (the long-run probe collects at checkpoints,
 * which disturbs the steps right after), repeated `turns` times; each window's figure is the
 * median over the turns. A loop whose step copies or scans its history shows later windows
 * costlier; a flat one shows the same figure throughout.
 */
export async function stepCostByPosition(plan: StepPlan, turn: TurnFn, steps: number, window: number, turns: number): Promise<PositionWindow[]> {
  const samples: number[][] = Array.from({ length: Math.floor(steps / window) }, () => []);
  for (let t = 0; t < turns; t += 1) {
    let windowStart = performance.now();
    plan.onToolRun = (step) => {
      if (step % window !== 0) return;
      const now = performance.now();
      samples[step / window - 1]?.push(((now - windowStart) * 1000) / window);
      windowStart = now;
    };
    plan.begin(steps);
    try {
      await turn(steps);
    } finally {
      plan.onToolRun = undefined;
    }
    plan.assertTurn(steps, 'step cost by position');
  }
  return samples.map((values, index) => ({ fromStep: index * window + 1, toStep: (index + 1) * window, usPerStep: median(values) }));
}
