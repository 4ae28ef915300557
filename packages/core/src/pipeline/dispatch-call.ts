import type { ToolArguments } from '../tools/call-context.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { runWithDeadline } from './run-with-deadline.js';
import type { Dispatch } from './stage-values.js';
import { failureResult, ToolCallError, type ToolFailure } from '../tools/tool-result.js';
import { withRetry } from './with-retry.js';

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
  let dispatch: Dispatch = async (bodyArgs, exec) => {
    context.attempts += 1;
    return tool.execute(bodyArgs, context.attempts === 1 ? exec : { ...exec, attempt: context.attempts });
  };
  if (tool.retryPolicy) dispatch = withRetry(dispatch, tool.retryPolicy);
  if (hasTaps(runtime.hooks.execute)) dispatch = (await runtime.hooks.execute.promise(dispatch, context)) as Dispatch;

  const timeoutMs = tool.timeoutMs ?? runtime.defaultTimeoutMs;
  const exec = { callId: context.callId, toolName: context.toolName, attempt: 1, logger: context.logger, sandbox: context.sandbox };
  const outcome = await runWithDeadline(dispatch, args, exec, { timeoutMs, signal: context.signal, logger: context.logger });
  if (outcome.ok) return outcome;
  if (outcome.reason === 'timeout') {
    return fail(context, 'TIMEOUT', `${context.toolName} did not finish within ${timeoutMs} ms and was stopped. Try a smaller request, or another approach.`);
  }
  if (outcome.reason === 'aborted') return fail(context, 'ABORTED', `${context.toolName} was cancelled before it finished.`);
  const { error } = outcome;
  if (error instanceof ToolCallError) return fail(context, error.code, cap(error.message));
  return fail(context, 'EXECUTION_FAILED', `${context.toolName} failed: ${cap(describeError(error))}`);
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
