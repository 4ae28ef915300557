import { compactionHookOf, type Harness } from '../harness.js';
import { hasTaps } from '../plugins/hooks.js';
import type { CompactionPlan } from './compaction-hook.js';

/**
 * The harness's `compaction` taps as `HistoryCompactor.plan`'s `before`, for a compaction of the
 * turn `runId` (or between turns); `undefined` when nobody taps the hook, so nothing is built.
 */
export function compactionTaps(harness: Harness, runId: string | undefined): ((plan: CompactionPlan) => Promise<CompactionPlan>) | undefined {
  const hook = compactionHookOf(harness);
  if (hook === undefined || !hasTaps(hook)) return undefined;
  const info = Object.freeze({ logger: harness.logger, runId });
  // The adapter turns every tap's answer into the plan (cancelled or not): the waterfall ends with one.
  return async (plan) => (await hook.promise(plan, info)) as unknown as CompactionPlan;
}
