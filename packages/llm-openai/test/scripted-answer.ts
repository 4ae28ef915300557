import type { ScriptedResponse } from './loopback-server.js';

/** An assistant answer to script, in the spec's terms. */
export interface ScriptedAnswer {
  readonly text?: string;
  readonly reasoning?: string;
  readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly arguments: string | Readonly<Record<string, unknown>> }[];
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/**
 * The SSE lines an OpenAI server sends for `answer`: a role chunk, reasoning, the text in word-sized
 * deltas, each tool call as a name chunk plus argument fragments, the finish chunk, a usage chunk
 * when given, then `[DONE]`.
 */
export function answerLines(answer: ScriptedAnswer, id = 'chatcmpl-loopback'): string[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1767225600, model: 'loopback-model', choices: [{ index: 0, delta, finish_reason: finishReason }] })}`;
  const lines = [chunk({ role: 'assistant', content: '' }), ''];
  if (answer.reasoning !== undefined) lines.push(chunk({ reasoning_content: answer.reasoning }), '');
  for (const word of (answer.text ?? '').match(/\S+\s*/g) ?? []) lines.push(chunk({ content: word }), '');
  (answer.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    lines.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }), '');
    const middle = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, middle), args.slice(middle)]) {
      if (part !== '') lines.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }), '');
    }
  });
  lines.push(chunk({}, answer.finishReason ?? ((answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop')), '');
  if (answer.usage !== undefined) {
    const usage = { prompt_tokens: answer.usage.inputTokens, completion_tokens: answer.usage.outputTokens, total_tokens: answer.usage.inputTokens + answer.usage.outputTokens };
    lines.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1767225600, model: 'loopback-model', choices: [], usage })}`, '');
  }
  lines.push('data: [DONE]', '');
  return lines;
}

/** `answer` as a streamed `ScriptedResponse`; `extra` adds delivery options (slices, pauses, cuts). */
export function streamedAnswer(answer: ScriptedAnswer, extra: Partial<ScriptedResponse> = {}): ScriptedResponse {
  return { lines: answerLines(answer), ...extra };
}
