import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolCallError, type Logger } from '@weir/core';
import { CallCancelSignal } from './call-cancel-signal.js';
import type { ClientSdk } from './load-sdk.js';

/** A progress update as the core's `exec.progress` takes it. */
export interface TaskProgress {
  readonly progress?: number;
  readonly total?: number;
  readonly message?: string;
}

/** What one task-augmented tool call needs. */
export interface ToolTaskCall {
  readonly client: Client;
  readonly sdk: ClientSdk;
  readonly server: string;
  readonly tool: string;
  readonly params: { readonly name: string; readonly arguments: Record<string, unknown> };
  /** Aborted by the call's abort or deadline: the task is then cancelled (`tasks/cancel`). */
  readonly cancel: CallCancelSignal;
  /** Neither progress nor a change of the task's status for this long: the task is cancelled. */
  readonly idleTimeoutMs: number;
  readonly onProgress: (update: TaskProgress) => void;
  readonly logger: Logger;
}

// A server asking for a poll every 0 ms must not make a busy loop, nor one asking for an hour a
// call that never notices its idle deadline.
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 5_000;
const DEFAULT_POLL_MS = 1_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Runs a tool through the protocol's task API (tools that declare `execution.taskSupport:
 * "required"`): `tools/call` with a `task` creates it, `tasks/get` is polled at the server's
 * `pollInterval` (kept between 20 ms and 5 s), and once the task is terminal `tasks/result` gives
 * the tool's result, which the caller reads like a direct call's (`content`, `isError`,
 * `structuredContent`). Progress the server reports for the call, and each new status message,
 * reach `onProgress` and renew the idle deadline. An abort of `cancel` sends `tasks/cancel`.
 *
 * Rejects with a `ToolCallError` the model can read when the task failed without a result
 * (`MCP_TASK_FAILED`), was cancelled by the server (`MCP_TASK_CANCELLED`) or went idle
 * (`MCP_IDLE_TIMEOUT`); the SDK's own errors (a closed connection, a JSON-RPC error) are passed on
 * for the link to explain. A server that answers the call directly, without making a task, has its
 * answer taken as the result.
 */
export async function runToolTask(call: ToolTaskCall): Promise<Record<string, unknown>> {
  const { client, sdk, cancel, idleTimeoutMs } = call;
  let lastActivity = Date.now();
  const onprogress = (update: TaskProgress): void => {
    lastActivity = Date.now();
    call.onProgress(update);
  };
  // Each request gets a signal of its own, aborted with the call's: the SDK adds an abort listener
  // to every request's signal and never removes it, so one signal shared by hundreds of polls
  // would, on an abort, send notifications/cancelled for every poll long answered.
  const ask = async (method: string, params: Record<string, unknown>, more: { task?: Record<string, unknown>; onprogress?: (update: TaskProgress) => void } = {}): Promise<Record<string, unknown>> => {
    const own = new CallCancelSignal();
    const follow = (): void => own.abort(cancel.reason);
    if (cancel.aborted) follow();
    else cancel.addEventListener('abort', follow);
    try {
      return await client.request({ method, params }, sdk.ResultSchema, { ...more, signal: own.asAbortSignal(), timeout: idleTimeoutMs });
    } finally {
      cancel.removeEventListener('abort', follow);
    }
  };
  const created = await ask('tools/call', call.params, { task: {}, onprogress });
  const task = created.task;
  if (!isRecord(task) || typeof task.taskId !== 'string') {
    if (Array.isArray(created.content)) return created;
    throw new ToolCallError('MCP_ERROR', `The MCP server "${call.server}" answered the task call to "${call.tool}" with neither a task nor a result.`);
  }
  const taskId = task.taskId;
  call.logger.debug({ server: call.server, tool: call.tool, taskId }, 'MCP task created');

  let cancelSent = false;
  const sendCancel = (why: string): void => {
    if (cancelSent) return;
    cancelSent = true;
    call.logger.debug({ server: call.server, tool: call.tool, taskId, why }, 'cancelling the MCP task');
    client.request({ method: 'tasks/cancel', params: { taskId } }, sdk.ResultSchema, { timeout: Math.min(idleTimeoutMs, 10_000) }).catch((error: unknown) => {
      // A task that ended in the meantime cannot be cancelled: nothing to do either way.
      call.logger.debug({ server: call.server, tool: call.tool, taskId, err: error }, 'tasks/cancel was not accepted');
    });
  };
  let wake: (() => void) | undefined;
  const onAbort = (): void => {
    sendCancel('the call was aborted');
    wake?.();
  };
  if (cancel.aborted) onAbort();
  else cancel.addEventListener('abort', onAbort);

  try {
    let status = typeof task.status === 'string' ? task.status : 'working';
    let statusMessage = typeof task.statusMessage === 'string' ? task.statusMessage : undefined;
    let pollInterval = typeof task.pollInterval === 'number' ? task.pollInterval : DEFAULT_POLL_MS;
    for (;;) {
      if (cancel.aborted) throw cancel.reason;
      if (TERMINAL.has(status)) break;
      if (status === 'input_required') {
        // The server waits for an answer it sends through tasks/result (elicitation, sampling):
        // that request blocks until the task is terminal and then carries its result.
        return await ask('tasks/result', { taskId });
      }
      if (Date.now() - lastActivity >= idleTimeoutMs) {
        sendCancel('idle');
        throw new ToolCallError('MCP_IDLE_TIMEOUT', `The MCP tool "${call.tool}" (a task) reported neither progress nor a new status for ${idleTimeoutMs} ms and was cancelled.`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, pollInterval)));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      if (cancel.aborted) throw cancel.reason;
      const polled = await ask('tasks/get', { taskId });
      const nextStatus = typeof polled.status === 'string' ? polled.status : status;
      const nextMessage = typeof polled.statusMessage === 'string' ? polled.statusMessage : statusMessage;
      if (nextStatus !== status || nextMessage !== statusMessage) lastActivity = Date.now();
      if (nextMessage !== undefined && nextMessage !== statusMessage && !TERMINAL.has(nextStatus)) call.onProgress({ message: nextMessage });
      status = nextStatus;
      statusMessage = nextMessage;
      if (typeof polled.pollInterval === 'number') pollInterval = polled.pollInterval;
    }
    if (status === 'cancelled') {
      throw new ToolCallError('MCP_TASK_CANCELLED', `The MCP server "${call.server}" cancelled the task of "${call.tool}"${statusMessage === undefined ? '' : `: ${statusMessage}`}.`);
    }
    let result: Record<string, unknown>;
    try {
      result = await ask('tasks/result', { taskId });
    } catch (error) {
      // A failed task may have no result but its error (what the call would have answered).
      if (status === 'failed' && error instanceof sdk.McpError) {
        throw new ToolCallError('MCP_TASK_FAILED', `The MCP tool "${call.tool}" (a task) failed: ${statusMessage ?? error.message}`, { cause: error });
      }
      throw error;
    }
    if (status === 'failed' && result.isError !== true) {
      // A failed task's result is an error result, whatever flag the server left off.
      const content = Array.isArray(result.content) && result.content.length > 0 ? result.content : [{ type: 'text', text: `The task failed${statusMessage === undefined ? '' : `: ${statusMessage}`}.` }];
      return { ...result, content, isError: true };
    }
    return result;
  } finally {
    cancel.removeEventListener('abort', onAbort);
    // The SDK keeps the call's progress handler for a task until told it ended (see its
    // `_cleanupTaskProgressHandler`); without this, every task would leave one behind per session.
    (client as unknown as { _cleanupTaskProgressHandler?: (id: string) => void })._cleanupTaskProgressHandler?.(taskId);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
