import type { Logger } from '../logger.js';
import type { RawTap, TapAdapter } from './tap-adapters.js';

/** Where an observer's failure is logged, and the fields that say which call or turn it was about. */
export type ObserverReport = (context: unknown) => { readonly logger: Logger | undefined; readonly fields: Readonly<Record<string, unknown>> };

/**
 * The tap adapter of an observer hook beside the stages (`call`, `turn`): like a `result`
 * observer, a tap reads and cannot fail anything. What it throws, or a promise it returns that
 * rejects, is logged naming the tap and the hook (and the call or turn), and the run goes on.
 */
export function adaptObserverTap(hook: string, reportOf: ObserverReport): TapAdapter {
  return (tap: RawTap, state) => {
    const report = (error: unknown, context: unknown) => {
      const { logger, fields } = reportOf(context);
      logger?.error({ err: error, tap: tap.name, hook, ...fields }, `${hook} observer "${tap.name}" failed`);
    };
    return {
      type: 'sync',
      fn: (event: unknown, context: unknown): void => {
        if (state.removed) return;
        // No closure per event: these hooks fire several times per call, and the failure path is rare.
        try {
          const output = tap.fn(event, context) as unknown;
          if (output instanceof Promise) output.catch((error: unknown) => report(error, context));
        } catch (error) {
          report(error, context);
        }
      },
    };
  };
}
