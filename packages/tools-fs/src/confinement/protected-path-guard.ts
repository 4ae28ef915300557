import type { Guard } from '@weir/core';
import { FsError, quote } from '../fs-error.js';
import type { Located } from './locate-physical.js';
import { protectionOf, type ProtectedPaths } from './protected-paths.js';
import type { Workspace } from './workspace.js';

/** The tools whose `path` argument is written. */
export const WRITE_TOOL_NAMES: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

// Entries whose result was never announced are dropped past this many, oldest first.
const MAX_PENDING = 1024;

/**
 * Which protected canonical path each call was sent to approval for. The guard records it; the
 * body accepts a protected target only when it is exactly the one recorded for its call id, so a
 * link swapped between approval and execution cannot turn an approved or unprotected write into
 * a write to another protected path.
 */
export class ApprovalLedger {
  readonly #asked = new Map<string, string>();

  record(callId: string, relativePath: string): void {
    this.#asked.delete(callId);
    this.#asked.set(callId, relativePath);
    if (this.#asked.size > MAX_PENDING) this.#asked.delete(this.#asked.keys().next().value as string);
  }

  /** True when `callId` was asked about exactly `relativePath`. Consumes the entry. */
  consume(callId: string, relativePath: string): boolean {
    const asked = this.#asked.get(callId);
    this.#asked.delete(callId);
    return asked === relativePath;
  }

  forget(callId: string): void {
    this.#asked.delete(callId);
  }
}

/** What the guard and the write tools share to decide protection. */
export interface ProtectionDeps {
  readonly workspace: Workspace;
  readonly protectedPaths: ProtectedPaths;
  readonly ledger: ApprovalLedger;
}

/**
 * The guard that makes writes to protected paths ask for approval: `ask` is stricter than any
 * `allow`, so it holds in a permissive mode, and with no approver the core denies (fail closed).
 * It covers files that do not exist yet (their canonical path is located all the same). A path
 * that cannot be located gets no opinion: the body refuses it with its own code.
 */
export function protectedPathGuard({ workspace, protectedPaths, ledger }: ProtectionDeps): Guard {
  return async (call) => {
    if (!WRITE_TOOL_NAMES.has(call.toolName)) return undefined;
    const input = call.arguments.path;
    if (typeof input !== 'string') return undefined;
    const located = await workspace.locate(input, 'write');
    if (!located.ok) return undefined;
    const rule = await protectionOf(workspace, protectedPaths, input, located);
    if (rule === undefined) return undefined;
    ledger.record(call.callId, located.relativePath);
    return {
      decision: 'ask',
      reason: `${call.toolName} would write ${quote(located.relativePath)}, a protected path (${rule}). Writes there can run code or change how tools behave; approve only if you expected this change.`,
    };
  };
}

/**
 * The body's half of the protection: throws `FsError('PROTECTED_PATH')` when the target is
 * protected and this call was not sent to approval for exactly that canonical path.
 */
export async function assertWriteApproved(deps: ProtectionDeps, callId: string, input: string, located: Located): Promise<void> {
  const rule = await protectionOf(deps.workspace, deps.protectedPaths, input, located);
  if (rule === undefined) {
    deps.ledger.forget(callId);
    return;
  }
  if (!deps.ledger.consume(callId, located.relativePath)) {
    throw new FsError(
      'PROTECTED_PATH',
      `${quote(located.relativePath)} is a protected path (${rule}) and this call was not approved for it (it may have changed since approval was asked). Nothing was written.`,
    );
  }
}
