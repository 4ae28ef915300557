import type { ProgressListener } from './execute-options.js';
import type { Logger } from '../logger.js';
import type { Sandbox } from '../policy/sandbox.js';
import type { CallContext, CallRun, ToolArguments, ToolCall } from '../tools/call-context.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import { newCallKey } from './call-key.js';
import type { CallObserver } from './call-event.js';

/** What the pipeline keeps for a call beside the public context. Taps see it only as `CallContext`. */
export interface PipelineContext extends CallContext {
  /** `performance.now()` when the call entered the pipeline. */
  readonly startedAt: number;
  /** Cap on model-visible content, in characters. */
  readonly maxContentChars: number;
  /** Cap on one image's bytes in a result. */
  readonly maxImageBytes: number;
  /** The run's own progress listener (`ExecuteOptions.onProgress`), if any. */
  readonly onProgress: ProgressListener | undefined;
  /** How long one piece of plugin code (a guard, a tap, building a wrapper) may take. */
  readonly hookTimeoutMs: number;
  /** Times the body ran so far. */
  attempts: number;
  /** The arguments stage 1 approved: the only ones a body may run with. Set when stage 1 clears the call. */
  approvedArguments: ToolArguments | undefined;
  /** Set once the execute stage is over (a value, a failure, a timeout or an abort): no body may start after. */
  bodyClosed: boolean;
  /** Set when stage 1 reads an object argument: the pipeline's own copy replaces the caller's. */
  rawArguments: ToolCall['arguments'];
  /** Tells the `call` observers; set at the start only when the hook has taps, so an unobserved call times nothing. */
  observe: CallObserver | undefined;
}

/** What a call reads from its harness (the runtime; named here so this file does not import the harness's). */
export interface CallSource {
  readonly tools: { get(name: string): RegisteredTool | undefined };
  readonly logger: Logger;
  readonly sandbox: { readonly current: Sandbox | undefined };
  readonly maxContentChars: number;
  readonly maxImageBytes: number;
  readonly hookTimeoutMs: number;
}

/** The run given by the caller, or one made (lazily) for this `executeToolCall(s)` invocation. */
export interface RunSource {
  run: CallRun | undefined;
  /** `performance.now()` when the batch began, set only when calls are observed (their queue wait is measured from it). */
  startedAt?: number;
}

/**
 * The context of one call. The key and the run are made only when something reads them (a journal,
 * an approval memory, a queue, a trace): a call nobody keys costs no UUID.
 */
class CallState implements PipelineContext {
  readonly callId: string;
  readonly toolName: string;
  readonly tool: RegisteredTool | undefined;
  rawArguments: ToolCall['arguments'];
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
  readonly sandbox: Sandbox | undefined;
  readonly startedAt: number;
  readonly maxContentChars: number;
  readonly maxImageBytes: number;
  readonly hookTimeoutMs: number;
  readonly onProgress: ProgressListener | undefined;
  attempts = 0;
  approvedArguments: ToolArguments | undefined = undefined;
  bodyClosed = false;
  observe: CallObserver | undefined = undefined;
  #key: string | undefined;
  readonly #runs: RunSource;

  constructor(runtime: CallSource, call: ToolCall, signal: AbortSignal | undefined, onProgress: ProgressListener | undefined, runs: RunSource) {
    this.callId = call.id;
    this.toolName = call.name;
    this.tool = runtime.tools.get(call.name);
    this.rawArguments = call.arguments;
    this.signal = signal;
    this.logger = runtime.logger;
    this.sandbox = runtime.sandbox.current;
    this.startedAt = performance.now();
    this.maxContentChars = runtime.maxContentChars;
    this.maxImageBytes = runtime.maxImageBytes;
    this.hookTimeoutMs = runtime.hookTimeoutMs;
    this.onProgress = onProgress;
    this.#key = typeof call.key === 'string' && call.key !== '' ? call.key : undefined;
    this.#runs = runs;
  }

  get callKey(): string {
    return (this.#key ??= newCallKey());
  }

  get run(): CallRun {
    return (this.#runs.run ??= Object.freeze({ id: newCallKey() }));
  }
}

/** The context of a call entering the pipeline. */
export function createCallContext(
  runtime: CallSource,
  call: ToolCall,
  signal: AbortSignal | undefined,
  onProgress: ProgressListener | undefined,
  runs: RunSource,
): PipelineContext {
  return new CallState(runtime, call, signal, onProgress, runs);
}

/** Milliseconds since the call entered the pipeline, rounded to microseconds. */
export function elapsed(context: PipelineContext): number {
  return Math.round((performance.now() - context.startedAt) * 1000) / 1000;
}

/** The metadata every result of this call carries at this point. */
export function metaOf(context: PipelineContext, resultContext?: readonly string[]) {
  return {
    callId: context.callId,
    toolName: context.toolName,
    durationMs: elapsed(context),
    attempts: context.attempts,
    context: resultContext,
  };
}
