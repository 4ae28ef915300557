import type { Logger } from '../logger.js';
import type { ModelResponse } from './model.js';
import type { RawTap, TapAdapter } from '../plugins/tap-adapters.js';
import type { TurnInfo } from './turn-event.js';

/** One model call of a turn, ready to run: a `modelCall` tap may run it in a scope of its own. */
export type ModelCallRun = () => Promise<ModelResponse>;

/**
 * The tap adapter of the `modelCall` hook: a tap gets the run and the turn, and returns a run that
 * calls the one it got (in an OpenTelemetry context, an AsyncLocalStorage scope), or `undefined` to
 * leave it as it is. Wrapping cannot fail the turn: a tap that throws, or returns what is not a
 * function, is logged naming the tap and skipped. What the returned run rejects with is the model
 * call's failure, as if the model had failed.
 */
export const adaptModelCallTap: TapAdapter = (tap: RawTap, state) => ({
  type: 'sync',
  fn: (run: ModelCallRun, turn: TurnInfo): ModelCallRun => {
    if (state.removed) return run;
    try {
      const wrapped = tap.fn(run, turn) as unknown;
      if (wrapped === undefined) return run;
      if (typeof wrapped === 'function') return wrapped as ModelCallRun;
      report(turn.logger, tap.name, turn, new TypeError(`it returned ${wrapped === null ? 'null' : typeof wrapped}, not a function`));
    } catch (error) {
      report(turn.logger, tap.name, turn, error);
    }
    return run;
  },
});

function report(logger: Logger | undefined, tap: string, turn: TurnInfo, error: unknown): void {
  logger?.error({ err: error, tap, hook: 'modelCall', runId: turn.run.id }, `modelCall wrap "${tap}" failed; the model call runs unwrapped`);
}
