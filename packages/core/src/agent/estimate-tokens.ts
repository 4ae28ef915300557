import type { Message, ModelResponse, Usage } from './model.js';

/** Characters per token of the estimate: about right for English and code with the common tokenizers. */
const CHARS_PER_TOKEN = 4;

/**
 * A rough token count of messages (characters / 4, tool calls' arguments included), for a provider
 * that reports no usage and for the compaction threshold. It iterates what it is given: the loop
 * calls it only when a policy needs it.
 */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += message.content.length;
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      for (const call of message.toolCalls) chars += call.name.length + (typeof call.arguments === 'string' ? call.arguments.length : JSON.stringify(call.arguments).length);
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The usage a call reported, or an estimate of it from the request and the answer. */
export function usageOrEstimate(messages: readonly Message[], response: ModelResponse): Usage {
  if (response.usage !== undefined) return response.usage;
  return { inputTokens: estimateTokens(messages), outputTokens: estimateTokens([{ role: 'assistant', content: response.text, toolCalls: response.toolCalls }]) };
}
