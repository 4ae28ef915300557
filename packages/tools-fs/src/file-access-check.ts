import type { ToolExecution } from '@weir/core';
import { FsError } from './fs-error.js';

/**
 * What a policy plugin (`@weir/safety`) puts on `exec.fileAccess`: the rules again, on the
 * canonical path a body is about to open, relative to the root (`.` for the root). Structural on
 * purpose: tools-fs depends on core only.
 */
interface FileAccess {
  check(relativePath: string): { readonly allowed: boolean; readonly reason?: string };
}

function fileAccessOf(exec: ToolExecution): FileAccess | undefined {
  const access = (exec as ToolExecution & { readonly fileAccess?: unknown }).fileAccess;
  return typeof access === 'object' && access !== null && typeof (access as FileAccess).check === 'function' ? (access as FileAccess) : undefined;
}

/** The reason the policy refuses `relativePath`, or `undefined` when it may be opened (or no policy asks). A check that throws refuses. */
export function fileAccessRefusal(exec: ToolExecution, relativePath: string): string | undefined {
  const access = fileAccessOf(exec);
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
