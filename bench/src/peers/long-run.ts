import { getHeapStatistics } from 'node:v8';
import type { TurnFn } from './side-by-side.js';
import type { StepPlan } from './step-plan.js';

/**
 * One long turn (10,000 steps, or as far as a time and heap budget allow) to show whether a loop's
 * cost or memory grows with its history. At checkpoint steps, from inside the tool, it forces a
 * full collection and reads the live heap, so what the loop still holds mid-turn is counted; the
 * time spent collecting is taken out of the step timings. Between checkpoints it gives µs per step
 * and live-heap bytes per step: a loop whose step cost is flat shows the same figures in every
 * window, one that copies its history per step shows them rising.
 */

export interface LongRunOptions {
  readonly steps: number;
  /** Time budget for the steps themselves (collection excluded); the model then answers with text. */
  readonly budgetMs: number;
  /** Live heap above which the model answers with text, so a loop with quadratic memory ends its turn. */
  readonly heapBudgetBytes: number;
}

export interface LongRunWindow {
  readonly fromStep: number;
  readonly toStep: number;
  readonly usPerStep: number;
  readonly heapBytesPerStep: number;
}

export interface LongRunResult {
  readonly requestedSteps: number;
  readonly steps: number;
  readonly stoppedBy: 'completed' | 'time budget' | 'heap budget' | 'error';
  readonly error?: string;
  /** Wall time of the turn's steps, collection at checkpoints excluded. */
  readonly stepSeconds: number;
  readonly windows: readonly LongRunWindow[];
  /** Live heap growth per step from step 100 (or the first checkpoint) to the last checkpoint. */
  readonly heapBytesPerStep: number;
  /** Live heap after the turn, its result dropped, minus before it: what the loop keeps. */
  readonly retainedAfterTurnBytes: number;
}

const CHECKPOINTS = [10, 100, 250, 500, 1000, 2500, 5000, 10_000, 20_000, 50_000];
const HEAP_CHECK_EVERY = 64;

type Gc = () => void;

function gcOrThrow(): Gc {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc: the long run reads the live heap after a full collection');
  return gc;
}

/** Full collection, twice so weak and finalised objects from the first pass are gone too. */
export function liveHeapBytes(): number {
  const gc = gcOrThrow();
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

interface Checkpoint {
  readonly step: number;
  readonly atMs: number;
  readonly heap: number;
}

/**
 * Awaits the turn in a frame of its own that then ends: a result awaited in longRun's own frame
 * can stay reachable from that suspended frame's registers, and would count as retained.
 */
async function runDiscardingResult(turn: TurnFn, k: number): Promise<void> {
  await turn(k);
}

export async function longRun(plan: StepPlan, turn: TurnFn, options: LongRunOptions): Promise<LongRunResult> {
  const checkpointSteps = new Set(CHECKPOINTS.filter((s) => s <= options.steps));
  const checkpoints: Checkpoint[] = [];
  let stoppedBy: LongRunResult['stoppedBy'] = 'completed';
  let error: string | undefined;
  let pausedMs = 0;

  const heapBefore = liveHeapBytes();
  const start = performance.now();
  const record = (step: number): void => {
    const pauseStart = performance.now();
    const heap = liveHeapBytes();
    checkpoints.push({ step, atMs: pauseStart - start - pausedMs, heap });
    pausedMs += performance.now() - pauseStart;
  };
  plan.onToolRun = (step) => {
    if (checkpointSteps.has(step)) record(step);
    if (plan.stopEarly) return;
    if (performance.now() - start - pausedMs > options.budgetMs) stoppedBy = 'time budget';
    else if (step % HEAP_CHECK_EVERY === 0 && getHeapStatistics().used_heap_size > options.heapBudgetBytes) {
      stoppedBy = 'heap budget';
    } else return;
    plan.stopEarly = true;
    if (!checkpointSteps.has(step)) record(step);
  };

  plan.begin(options.steps);
  try {
    await runDiscardingResult(turn, options.steps);
  } catch (e) {
    stoppedBy = 'error';
    error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } finally {
    plan.onToolRun = undefined;
  }
  const stepSeconds = (performance.now() - start - pausedMs) / 1000;
  const steps = plan.toolRuns;
  if (stoppedBy !== 'error' && plan.modelCalls !== steps + 1) {
    throw new Error(`long run: ${steps} tool runs but ${plan.modelCalls} model calls`);
  }
  const retainedAfterTurnBytes = liveHeapBytes() - heapBefore;

  const windows: LongRunWindow[] = [];
  for (let i = 1; i < checkpoints.length; i++) {
    const a = checkpoints[i - 1]!;
    const b = checkpoints[i]!;
    const n = b.step - a.step;
    windows.push({
      fromStep: a.step,
      toStep: b.step,
      usPerStep: ((b.atMs - a.atMs) * 1000) / n,
      heapBytesPerStep: (b.heap - a.heap) / n,
    });
  }
  const first = checkpoints.find((c) => c.step >= 100) ?? checkpoints[0];
  const last = checkpoints[checkpoints.length - 1];
  const heapBytesPerStep =
    first !== undefined && last !== undefined && last.step > first.step
      ? (last.heap - first.heap) / (last.step - first.step)
      : Number.NaN;

  return {
    requestedSteps: options.steps,
    steps,
    stoppedBy,
    ...(error !== undefined ? { error } : {}),
    stepSeconds,
    windows,
    heapBytesPerStep,
    retainedAfterTurnBytes,
  };
}
