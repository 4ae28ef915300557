import type { Logger } from '../logger.js';
import type { RawTap, TapAdapter } from './tap-adapters.js';

/**
 * The tap adapter of an observer hook beside the stages (`call`, `turn`): like a `result`
 * observer, a tap reads and cannot fail anything. What it throws, or a promise it returns that
 * rejects, is logged on `loggerOf(context)` naming the tap and the hook, and the run goes on.
 */
export function adaptObserverTap(hook: string, loggerOf: (context: unknown) => Logger | undefined): TapAdapter {
  return (tap: RawTap, state) => ({
    type: 'sync',
    fn: (event: unknown, context: unknown): void => {
      if (state.removed) return;
      const report = (error: unknown) => loggerOf(context)?.error({ err: error, tap: tap.name, hook }, `${hook} observer "${tap.name}" failed`);
      try {
        const output = tap.fn(event, context) as unknown;
        if (output instanceof Promise) output.catch(report);
      } catch (error) {
        report(error);
      }
    },
  });
}
