import type { CallRun } from '../tools/call-context.js';
import type { ToolExecution } from '../tools/define-tool.js';
import type { Logger } from '../logger.js';
import type { Sandbox } from '../policy/sandbox.js';
import type { PipelineContext } from './pipeline-context.js';
import type { CallAbortSource } from './call-signal.js';

const SOURCE = Symbol('weir.signalSource');

// A getter, not a value: the AbortController behind it is made only when a body reads it (see
// `CallSignal`). Own and enumerable, so that a wrapper's `{ ...exec, extra }` carries it on.
const LAZY_SIGNAL: PropertyDescriptor = Object.freeze({
  enumerable: true,
  configurable: false,
  get(this: CallExecution) {
    return this[SOURCE].signal;
  },
});

/**
 * What the body gets as `exec`. Every field is an own, enumerable property (a wrapper may spread it),
 * and only what a body may read is made: the signal's controller when it is read.
 */
export class CallExecution implements ToolExecution {
  declare readonly signal: AbortSignal;
  readonly callId: string;
  readonly toolName: string;
  readonly attempt = 1;
  readonly logger: Logger;
  readonly sandbox: Sandbox | undefined;
  readonly progress: ToolExecution['progress'];
  readonly callKey: string;
  readonly run: CallRun;
  readonly onAbort: NonNullable<ToolExecution['onAbort']>;
  readonly [SOURCE]: CallAbortSource;

  constructor(context: PipelineContext, progress: ToolExecution['progress'], source: CallAbortSource, lazy: boolean) {
    this[SOURCE] = source;
    this.onAbort = source.onAbort;
    if (lazy) Object.defineProperty(this, 'signal', LAZY_SIGNAL);
    else (this as { signal: AbortSignal }).signal = source.signal;
    this.callId = context.callId;
    this.toolName = context.toolName;
    this.logger = context.logger;
    this.sandbox = context.sandbox;
    this.progress = progress;
    this.callKey = context.callKey;
    this.run = context.run;
  }
}
