import pRetry from 'p-retry';
import type { ToolRetryPolicy } from '../tools/define-tool.js';
import type { Dispatch } from './stage-values.js';
import { isToolCallError } from '../tools/tool-result.js';

/**
 * Wraps `dispatch` so a failed attempt runs again with backoff, as the tool declared. Waits are
 * abortable through the call's signal, so every retry stays inside the call's deadline. A
 * `ToolCallError` is the tool saying what went wrong: never retried.
 */
export function withRetry(dispatch: Dispatch, policy: ToolRetryPolicy): Dispatch {
  return (args, exec) =>
    pRetry(() => dispatch(args, exec), {
      retries: policy.retries,
      factor: 2,
      minTimeout: policy.minTimeoutMs ?? 100,
      maxTimeout: policy.maxTimeoutMs ?? 2_000,
      randomize: false,
      signal: exec.signal,
      shouldRetry: ({ error }) => !isToolCallError(error) && !exec.signal.aborted && (policy.shouldRetry?.(error) ?? true),
    });
}
