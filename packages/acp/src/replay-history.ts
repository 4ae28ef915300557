import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message } from '@weir/core';
import { callArguments, toolCallView } from './tool-call-view.js';
import { toolCallId } from './turn-updates.js';

/**
 * A loaded session's history as the updates that would have shown it: the user's messages, the
 * answers and their reasoning, each tool call with its result (completed, or failed for an error
 * result). The system message is weir's, not the conversation's, and is left out.
 */
export function replayHistory(messages: readonly Message[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const ids = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: message.content } });
        break;
      case 'assistant':
        if (message.reasoning) updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: message.reasoning } });
        if (message.content !== '') updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message.content } });
        for (const call of message.toolCalls ?? []) {
          const args = callArguments(call.arguments);
          const view = toolCallView(call.name, args, cwd);
          const id = toolCallId(call);
          ids.set(call.id, id);
          updates.push({ sessionUpdate: 'tool_call', toolCallId: id, title: view.title, kind: view.kind, status: 'pending', locations: view.locations, rawInput: args });
        }
        break;
      case 'tool':
        updates.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: ids.get(message.toolCallId) ?? message.toolCallId,
          status: message.isError === true ? 'failed' : 'completed',
          content: [{ type: 'content', content: { type: 'text', text: message.content } }],
        });
        break;
    }
  }
  return updates;
}
