import type { ApprovalMemory, ApprovalResponse } from '@weir/core';

const ALLOW: ApprovalResponse = Object.freeze({ decision: 'allow' });

/**
 * The AI SDK's own approval of one call, as weir's approval memory: when the messages the SDK hands
 * `execute` hold an approved `tool-approval-response` for this call (the `needsApproval` flow of
 * AI SDK 6, `toolApproval` of AI SDK 7), a guard that asks is answered "allow" without asking weir's
 * approver again. Anything else (no response, a denial, another call's) is not found, and the
 * caller's own memory, then weir's approver, decide. Nothing is recorded: the decision lives in the
 * AI SDK's messages.
 */
export function approvalsFromMessages(messages: unknown, toolCallId: string, next: ApprovalMemory | undefined): ApprovalMemory {
  return {
    find: (key) => (key.callId === toolCallId && approvedInMessages(messages, toolCallId) ? ALLOW : next?.find(key)),
    record: (key, response) => next?.record(key, response) ?? Promise.resolve(),
  };
}

/** True when `messages` hold a request for `toolCallId` whose response says `approved: true`. */
export function approvedInMessages(messages: unknown, toolCallId: string): boolean {
  if (!Array.isArray(messages)) return false;
  let approvalId: unknown;
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (part?.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalId = part.approvalId;
      else if (part?.type === 'tool-approval-response' && approvalId !== undefined && part.approvalId === approvalId) return part.approved === true;
    }
  }
  return false;
}
