import type { ApprovalRequest } from '@weir/core';
import type { PermissionRule } from '../rules/permission-rule.js';

/** What an approver is asked: core's approval request, plus the session answer on offer. */
export interface ApproverRequest extends ApprovalRequest {
  /**
   * What "allow for this session" would cover, in words to show the person. `undefined` when it is
   * not offered: an ask rule or a protected path asks every time, and an ask from another plugin's
   * guard is not safety's to remember.
   */
  readonly session: { readonly description: string } | undefined;
  /**
   * What "allow always" would save, when it is offered: the rule, the settings file it goes to,
   * and the words to show (`saves { allow: { tool: "write_file", path: "src/**" } } to
   * .weir/settings.json`). Offered only where the session answer is a path scope and the project's
   * settings count (a trusted folder, no lock); `undefined` otherwise.
   */
  readonly always?: { readonly description: string; readonly rule: PermissionRule; readonly file: string };
}

/** A person's answer. Anything but a clear `allow` denies. */
export interface ApproverAnswer {
  readonly decision: 'allow' | 'deny';
  /**
   * With `allow`: `'once'` (the default), `'session'` to stop asking for what `request.session`
   * describes, or `'always'` to save the rule `request.always` shows (when it is offered; otherwise
   * it allows once).
   */
  readonly scope?: 'once' | 'session' | 'always';
  /** With `deny`: what the model is told. */
  readonly message?: string;
}

/**
 * Asks a person about one call. It may throw or never answer: the call is then denied (core's
 * approval timeout ends the wait, and `request.signal` aborts so the prompt can close).
 * A core `ApprovalResponder` fits this type too; it then only ever allows once.
 */
export type Approver = (request: ApproverRequest) => ApproverAnswer | Promise<ApproverAnswer>;
