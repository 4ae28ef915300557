import type { ToolExecution } from '@weir/core';
import { FsError } from '../fs-error.js';

/**
 * The reason the policy refuses `relativePath` (canonical, relative to the root, `.` for the
 * root), or `undefined` when it may be opened or no policy plugin provides `exec.fileAccess`
 * (`@weir/safety` does: its rules checked again on the path the body opens). A check that throws
 * refuses.
 */
export function fileAccessRefusal(exec: ToolExecution, relativePath: string): string | undefined {
  const access = exec.fileAccess;
  if (access === undefined) return undefined;
  try {
    const verdict = access.check(relativePath);
    if (verdict?.allowed === true) return undefined;
    return typeof verdict?.reason === 'string' ? verdict.reason : 'the safety policy refuses it';
  } catch {
    return 'the safety policy could not check it';
  }
}

/** Throws `FsError('DENIED_BY_POLICY')` when the policy refuses the path a tool was named on. */
export function assertFileAccess(exec: ToolExecution, relativePath: string, display: string): void {
  const refusal = fileAccessRefusal(exec, relativePath);
  if (refusal !== undefined) throw new FsError('DENIED_BY_POLICY', `${display} leads to ${JSON.stringify(relativePath)}, which ${refusal.replace(/^safety refuses "[^"]*": /, 'a safety rule refuses: ')}. Nothing was read or written.`);
}
