import type { FinishReason, ModelToolCall, ToolMessage } from './model.js';
import { UNSTARTED_CALL_CONTENT } from './session-history.js';
import { failureResult, type ToolFailure, type ToolResult } from '../tools/tool-result.js';

/** The history entry for one result: what the model reads, with `isError` set for failures. */
export function toolMessage(result: ToolResult): ToolMessage {
  if (result.parts !== undefined) {
    return { role: 'tool', toolCallId: result.callId, toolName: result.toolName, content: result.content, parts: result.parts, isError: !result.ok };
  }
  return { role: 'tool', toolCallId: result.callId, toolName: result.toolName, content: result.content, isError: !result.ok };
}

/** Why the calls of an answer with this finish reason were not run, in words the model can act on. */
const NOT_RUN: Readonly<Record<string, string>> = {
  length: 'the answer was cut off by the output token limit, so its arguments may be incomplete. Call it again with complete arguments, or split the work into smaller calls.',
  content_filter: "the answer was stopped by the provider's content filter.",
  error: 'the provider reported an error while producing the answer.',
};

/**
 * Results for the tool calls of an answer that ended with `length`, `content_filter` or `error`:
 * each is a `NOT_EXECUTED` failure that never reached the pipeline, so every call in the history
 * still has its answer (providers reject a history with an unanswered tool call).
 */
export function notExecutedResults(calls: readonly ModelToolCall[], finishReason: FinishReason): ToolFailure[] {
  const why = NOT_RUN[finishReason] ?? `the answer ended with "${finishReason}".`;
  return calls.map((call) =>
    failureResult({ callId: call.id, toolName: call.name, durationMs: 0, attempts: 0 }, 'NOT_EXECUTED', `${call.name} was not run: ${why}`),
  );
}

/**
 * Results for calls a resumed session left unrun when the user moves on instead of resuming: each
 * is a `NOT_EXECUTED` failure whose content is exactly what a rebuilt history answers them with, so
 * the live history and the reopened one stay equal.
 */
export function unstartedResults(calls: readonly ModelToolCall[]): ToolFailure[] {
  return calls.map((call) =>
    failureResult({ callId: call.id, toolName: call.name, durationMs: 0, attempts: 0 }, 'NOT_EXECUTED', UNSTARTED_CALL_CONTENT, UNSTARTED_CALL_CONTENT),
  );
}
