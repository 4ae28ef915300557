import type { ToolExecution } from '@weir/core';
import { ToolCallError } from '@weir/core';
import { errnoCode, errnoRefusal, FsError } from '../fs-error.js';

/**
 * Runs a tool body so that every failure reaches the model as a tools-fs code with a message
 * that names no absolute path: `FsError` and `ToolCallError` pass as they are, an abort passes
 * as it is (the pipeline reports it), a system error is translated, anything else becomes
 * `FS_ERROR` and is logged for the operator (docs/reliability.md 4.2: short, redacted errors).
 */
export async function runFsBody<T>(exec: ToolExecution, display: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolCallError) throw error;
    if (exec.signal.aborted) throw error;
    exec.logger.warn({ err: error, tool: exec.toolName, callId: exec.callId }, 'tools-fs: unexpected failure');
    if (errnoCode(error) !== undefined) throw FsError.from(errnoRefusal(error, display));
    throw new FsError('FS_ERROR', `${exec.toolName} failed unexpectedly on ${display}.`);
  }
}
