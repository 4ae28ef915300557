import { StepPlan } from './peers/step-plan.js';
import { weirTurn } from './weir-agent-turn.js';
import { median } from './measure.js';

/**
 * The agent step in CPU time: 25 rounds of 40 turns of K = 50 echo steps, each round's CPU time of
 * this process per step, and their median. On a shared machine the wall time counts the time other
 * processes held the cores; this does not, so two commits can be compared back to back at any load.
 */
export async function agentStepCpuBench(): Promise<number> {
  const plan = new StepPlan();
  const weir = weirTurn(plan);
  const k = 50;
  const rounds: number[] = [];
  for (let round = 0; round < 25; round += 1) {
    const start = process.cpuUsage();
    for (let turn = 0; turn < 40; turn += 1) {
      plan.begin(k);
      await weir.turn(k);
    }
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / (40 * k));
  }
  const perStep = median(rounds);
  console.log(`\nAgent step in CPU time (K = ${k}, median of 25 rounds x 40 turns): ${perStep.toFixed(2)} CPU µs per step`);
  return perStep;
}
