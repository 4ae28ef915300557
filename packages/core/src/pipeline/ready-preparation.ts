import type { ToolArguments } from '../tools/call-context.js';
import type { Preparation } from './stage-values.js';

/**
 * A frozen `ready` value around deep-frozen arguments: a prepareExecution tap cannot swap the
 * arguments by assigning to it; only a `rewrite`, validated again, changes them.
 */
export function readyPreparation(args: ToolArguments): Preparation {
  return Object.freeze({ status: 'ready', arguments: args });
}
