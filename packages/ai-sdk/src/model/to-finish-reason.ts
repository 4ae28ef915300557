import type { FinishReason } from '@weir/core';

/**
 * The SDK's finish reason (v2: a string; v3 and v4: `{ unified, raw }`) as weir's. `other` and
 * `unknown` read as `tool_calls` when the answer holds calls, else `stop`. v4's `interrupted` (the
 * stream ended without the provider's reason, as some compatible servers end every stream) is
 * `stop` for a text answer, as @weir/llm-openai reads such a stream, and `length` for one with tool
 * calls, so calls that may be cut are never run.
 */
export function toFinishReason(reason: unknown, hasToolCalls: boolean): FinishReason {
  const unified = typeof reason === 'object' && reason !== null ? (reason as { unified?: unknown }).unified : reason;
  switch (unified) {
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'tool-calls':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'interrupted':
      return hasToolCalls ? 'length' : 'stop';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}
