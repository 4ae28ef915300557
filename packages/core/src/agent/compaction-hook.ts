import type { Logger } from '../logger.js';
import type { RawTap, TapAdapter } from '../plugins/tap-adapters.js';

/** What set a compaction off: the history passed the limit before a step, or `agent.compact()` was called. */
export type CompactionTrigger = 'auto' | 'manual';

/**
 * The compaction about to run, as the `compaction` hook's taps see it: decided (the history is over
 * the limit, or it was asked for, and there is something to summarise), before the summary call.
 */
export interface CompactionPlan {
  readonly trigger: CompactionTrigger;
  /** The caller's instructions for the summary (`agent.compact({ instructions })`); `undefined` for an automatic one. */
  readonly instructions: string | undefined;
  /** How many messages the summary would replace. */
  readonly replaced: number;
  /** The history's estimated size, in tokens. */
  readonly tokens: number;
  /** Set once a tap cancelled it: later taps are skipped, and nothing is summarised. */
  readonly cancelled?: { readonly by: string; readonly reason: string };
}

/** What a `compaction` tap may answer: `undefined` lets it go on; a cancel stops it, with the reason. */
export type CompactionAction = { readonly action: 'cancel'; readonly reason: string };

/** Where the compaction happens: the harness's logger, and the turn's run when it happens in a turn. */
export interface CompactionInfo {
  readonly logger: Logger;
  /** The turn's run id (auto), `undefined` for `agent.compact()` between turns. */
  readonly runId: string | undefined;
}

/**
 * The tap adapter of the `compaction` hook. A tap gets the plan and answers `undefined` or
 * `{ action: 'cancel', reason }`; the first cancel is final. A tap that throws, rejects or answers
 * anything else is logged naming it and counts as no objection: a broken plugin must not keep the
 * history from fitting the model's context window.
 */
export const adaptCompactionTap: TapAdapter = (tap: RawTap, state) => ({
  type: 'promise',
  fn: async (plan: CompactionPlan, info: CompactionInfo): Promise<CompactionPlan> => {
    if (state.removed || plan.cancelled !== undefined) return plan;
    let output: unknown;
    try {
      // A tapAsync tap answers through a callback; tap and tapPromise ones return (a promise of) it.
      output = tap.type === 'async' ? await new Promise((resolve, reject) => tap.fn(plan, info, (error: unknown, value: unknown) => (error ? reject(error) : resolve(value)))) : await tap.fn(plan, info);
    } catch (error) {
      report(info, tap.name, error);
      return plan;
    }
    if (output === undefined || output === plan) return plan;
    const action = output as Partial<CompactionAction> | null;
    if (typeof action === 'object' && action !== null && action.action === 'cancel') {
      const reason = typeof action.reason === 'string' && action.reason.trim() !== '' ? action.reason : 'no reason given';
      return Object.freeze({ ...plan, cancelled: Object.freeze({ by: tap.name, reason }) });
    }
    report(info, tap.name, new TypeError(`it returned ${action === null ? 'null' : typeof action === 'object' ? 'an object without action: "cancel"' : typeof action}; expected undefined or { action: 'cancel', reason }`));
    return plan;
  },
});

function report(info: CompactionInfo, tap: string, error: unknown): void {
  info.logger.error({ err: error, tap, hook: 'compaction', ...(info.runId === undefined ? {} : { runId: info.runId }) }, `compaction tap "${tap}" failed; the compaction goes on`);
}
