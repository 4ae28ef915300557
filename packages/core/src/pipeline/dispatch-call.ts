import type { ToolArguments } from '../tools/call-context.js';
import type { ToolExecution } from '../tools/define-tool.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { runWithDeadline } from './run-with-deadline.js';
import { CallSignal, NEVER_ABORTED } from './call-signal.js';
import { CallExecution } from './call-execution.js';
import type { Dispatch } from './stage-values.js';
import { failureResult, isToolCallError, type ToolFailure } from '../tools/tool-result.js';
import { HookFailure } from '../plugins/hook-failure.js';
import { withRetry } from './with-retry.js';
import { ProgressChannel, UNOBSERVED_PROGRESS } from './progress-channel.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import { since, type CallObserver } from './call-event.js';

const MAX_ERROR_MESSAGE_CHARS = 2_000;

/**
 * Stages 2 and 3: build the dispatcher (the body, the tool's retry policy, then the execute taps'
 * wrappers) and run it under the call's deadline and signal. Returns the body's value or the
 * failure the model will read. An execute tap that throws rejects with `HookFailure`.
 */
export async function dispatchCall(
  runtime: HarnessRuntime,
  context: PipelineContext,
  args: ToolArguments,
): Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly result: ToolFailure }> {
  const tool = context.tool!;
  const observe = context.observe;
  let dispatch = bodyDispatch(context, tool, observe);
  if (tool.retryPolicy) dispatch = withRetry(dispatch, tool.retryPolicy);
  if (hasTaps(runtime.hooks.execute)) dispatch = (await runtime.hooks.execute.promise(dispatch, context)) as Dispatch;

  const timeoutMs = tool.timeoutMs ?? runtime.defaultTimeoutMs;
  const idleTimeoutMs = tool.idleTimeoutMs;
  // A channel only when someone listens: the progress hook, the run's listener, or an idle deadline.
  const deliver = progressDelivery(runtime, context);
  const progress = deliver === undefined && idleTimeoutMs === undefined ? undefined : new ProgressChannel(deliver, runtime.progressIntervalMs);
  // A signal that can abort only when something can interrupt the call.
  const callSignal = Number.isFinite(timeoutMs) || idleTimeoutMs !== undefined || context.signal !== undefined ? new CallSignal() : undefined;
  const exec = new CallExecution(context, progress === undefined ? UNOBSERVED_PROGRESS : progress.report, callSignal ?? NEVER_ABORTED, callSignal !== undefined);
  let outcome;
  try {
    outcome = await runWithDeadline(dispatch, args, exec, callSignal, { timeoutMs, idleTimeoutMs, progress, signal: context.signal, logger: context.logger });
  } finally {
    progress?.close();
  }
  context.bodyClosed = true;
  if (outcome.ok) return outcome;
  if (outcome.reason === 'timeout') {
    return fail(context, 'TIMEOUT', `${context.toolName} did not finish within ${timeoutMs} ms and was stopped. Try a smaller request, or another approach.`);
  }
  if (outcome.reason === 'idle') {
    return fail(context, 'TIMEOUT', `${context.toolName} reported no progress for ${idleTimeoutMs} ms and was stopped. Try a smaller request, or another approach.`);
  }
  if (outcome.reason === 'aborted') return fail(context, 'ABORTED', `${context.toolName} was cancelled before it finished.`);
  const { error } = outcome;
  // A wrapper that handed the body other arguments: the pipeline names it (HOOK_FAILED).
  if (error instanceof HookFailure) throw error;
  if (isToolCallError(error)) return fail(context, error.code, cap(error.message));
  return fail(context, 'EXECUTION_FAILED', `${context.toolName} failed: ${cap(describeError(error))}`);
}

/**
 * The dispatcher that runs the body itself. Made by a function of its own rather than inline: a
 * closure assigned to a variable is renamed on every call by transpilers that keep names (tsx,
 * which runs the sources), and this one is made once per call. Unobserved, it hands on the body's
 * own promise: an async function returning it would cost two more turns of the microtask queue.
 */
function bodyDispatch(context: PipelineContext, tool: NonNullable<PipelineContext['tool']>, observe: CallObserver | undefined): Dispatch {
  if (observe === undefined) {
    return (bodyArgs, exec) => {
      try {
        return Promise.resolve(tool.execute(bodyArgs, attemptOf(context, exec)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return async (bodyArgs, exec) => {
    const attemptExec = attemptOf(context, exec);
    // Observed: tell the attempt as it ends. One still running when the call settled (a timeout,
    // an abort) is not told: the call's result says why it ended.
    const began = performance.now();
    const attempt = context.attempts;
    try {
      const value = await tool.execute(bodyArgs, attemptExec);
      if (!context.bodyClosed) observe({ type: 'attempt', attempt, ok: true, durationMs: since(began) });
      return value;
    } catch (error) {
      if (!context.bodyClosed) observe({ type: 'attempt', attempt, ok: false, error, durationMs: since(began) });
      throw error;
    }
  };
}

/** Counts an attempt and gives the body its `exec`; throws `BodyClosed` once the call has settled. */
function attemptOf(context: PipelineContext, exec: ToolExecution): ToolExecution {
  // Settled is final: a wrapper that queued the call past its deadline or abort never starts the body.
  if (context.bodyClosed) throw new BodyClosed();
  context.attempts += 1;
  return context.attempts === 1 ? exec : { ...exec, attempt: context.attempts };
}

/** Hands a report to the `progress` observers, then to the run's listener; `undefined` when there are none. */
function progressDelivery(runtime: HarnessRuntime, context: PipelineContext): ((update: ToolProgress) => void) | undefined {
  const observed = hasTaps(runtime.hooks.progress);
  const listener = context.onProgress;
  if (!observed && listener === undefined) return undefined;
  return (update) => {
    if (observed) runtime.hooks.progress.call(update, context);
    if (listener === undefined) return;
    try {
      listener(update, context);
    } catch (error) {
      context.logger.error({ err: error, callId: context.callId, tool: context.toolName, hook: 'progress' }, 'the run\'s progress listener failed; the call goes on');
    }
  };
}

/** Thrown into a wrapper that tries to start the body after the call settled. */
class BodyClosed extends Error {
  override readonly name = 'BodyClosed';
  constructor() {
    super('the call already settled (timed out, aborted or finished); the body is not started');
  }
}

function fail(context: PipelineContext, code: string, message: string) {
  return { ok: false, result: failureResult(metaOf(context), code, message) } as const;
}

/** A short, stack-free description: what the model needs, nothing more. */
function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return typeof error === 'string' ? error : `a non-error value was thrown: ${String(error)}`;
}

function cap(message: string): string {
  return message.length <= MAX_ERROR_MESSAGE_CHARS ? message : `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}...`;
}
