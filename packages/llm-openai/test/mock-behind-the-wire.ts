import type { LanguageModel, Message, ModelRequest, ToolSchema } from '@weir/core';
import type { RecordedRequest, ScriptedResponse } from './loopback-server.js';
import { streamedAnswer } from './scripted-answer.js';

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  reasoning_content?: string;
}

/**
 * A loopback script step that answers as `model` would: the Chat Completions request is read back
 * into a weir `ModelRequest`, `model.complete()` answers it, and the answer is streamed back as an
 * OpenAI server would send it. A program pointed at the loopback server then talks to `model`
 * through the whole wire format, both ways.
 */
export function behindTheWire(model: LanguageModel, delivery: Partial<ScriptedResponse> = {}): (request: RecordedRequest) => Promise<ScriptedResponse> {
  return async (request) => {
    const response = await model.complete(fromWire(request.json));
    return streamedAnswer(
      { text: response.text, toolCalls: response.toolCalls, finishReason: response.finishReason, ...(response.usage !== undefined && { usage: response.usage }) },
      delivery,
    );
  };
}

/** A Chat Completions request body as a weir `ModelRequest`. Throws on a body that is not one. */
export function fromWire(json: unknown): ModelRequest {
  const body = json as { messages: WireMessage[]; tools?: { function: ToolSchema }[] };
  const names = new Map<string, string>();
  const messages = body.messages.map((message): Message => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content ?? '' };
      case 'assistant': {
        const toolCalls = (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }));
        for (const call of toolCalls) names.set(call.id, call.name);
        return {
          role: 'assistant',
          content: message.content ?? '',
          ...(toolCalls.length > 0 && { toolCalls }),
          ...(message.reasoning_content !== undefined && { reasoning: message.reasoning_content }),
        };
      }
      case 'tool':
        return { role: 'tool', toolCallId: message.tool_call_id!, toolName: names.get(message.tool_call_id!) ?? '', content: message.content ?? '' };
      default:
        throw new Error(`unexpected role ${message.role}`);
    }
  });
  return { messages, tools: (body.tools ?? []).map((tool) => tool.function) };
}
