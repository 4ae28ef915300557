import type { FinishReason } from '@weir/core';

const ALIASES: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  eos: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  length: 'length',
  max_tokens: 'length',
  model_length: 'length',
  content_filter: 'content_filter',
  safety: 'content_filter',
  error: 'error',
};

/**
 * Maps a wire `finish_reason` to the spec's, then makes it agree with the answer: `stop` with tool
 * calls becomes `tool_calls` (forced calls, sglang, mlx servers), `tool_calls` without any becomes
 * `stop`. Unknown values (DeepSeek's `insufficient_system_resource`, say) become `error`, so that
 * nothing from an answer that ended in an unknown way is ever run. Never throws.
 */
export function toFinishReason(wire: string, hasToolCalls: boolean): FinishReason {
  const reason = ALIASES[wire] ?? 'error';
  if (reason === 'stop' && hasToolCalls) return 'tool_calls';
  if (reason === 'tool_calls' && !hasToolCalls) return 'stop';
  return reason;
}
