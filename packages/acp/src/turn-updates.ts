import { readFileSync, statSync } from 'node:fs';
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent, ModelToolCall, ToolResult } from '@weir/core';
import { callArguments, toolCallView } from './tool-call-view.js';

/** The id an editor knows a call by: the harness's key (unique in the session), the model's id otherwise. */
export function toolCallId(call: ModelToolCall): string {
  return call.key ?? call.id;
}

/** Files larger than this get no diff (the editor is told the tool's text only). */
const DIFF_LIMIT_BYTES = 1_000_000;

/**
 * Turns a weir turn's events into ACP `session/update`s, as they happen: text deltas become
 * `agent_message_chunk`s (an answer that did not stream comes whole at the call's end), reasoning
 * an `agent_thought_chunk`, each call a `tool_call` (pending: approval may come first), then a
 * `tool_call_update` per progress report and one with the result (completed or failed, its text,
 * and for an edit the file's text before and after as a diff). The listener is synchronous, as
 * core's event listener must be: an edited file is read when its call starts, before it can run.
 */
export function turnUpdates(cwd: string, send: (update: SessionUpdate) => void): (event: AgentEvent) => void {
  const before = new Map<string, string | undefined>();
  const streamed = new Set<number>();
  // Progress names the model's call id; the editor knows the call by its key.
  const keys = new Map<string, string>();
  return (event) => {
    switch (event.type) {
      case 'text-delta':
        streamed.add(event.step);
        if (event.text !== '') send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
        return;
      case 'model-call-end': {
        const { response } = event;
        if (response.reasoning !== undefined && response.reasoning !== '') send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: response.reasoning } });
        if (!streamed.has(event.step) && response.text !== '') send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: response.text } });
        return;
      }
      case 'tool-start': {
        const args = callArguments(event.call.arguments);
        const view = toolCallView(event.call.name, args, cwd);
        const id = toolCallId(event.call);
        keys.set(event.call.id, id);
        if (view.edits !== undefined) before.set(id, readText(view.edits));
        send({ sessionUpdate: 'tool_call', toolCallId: id, title: view.title, kind: view.kind, status: 'pending', locations: view.locations, rawInput: args });
        return;
      }
      case 'tool-progress':
        send({
          sessionUpdate: 'tool_call_update',
          toolCallId: keys.get(event.callId) ?? event.callId,
          status: 'in_progress',
          ...(event.update.message === undefined ? {} : { content: [text(event.update.message)] }),
        });
        return;
      case 'tool-result': {
        const id = toolCallId(event.call);
        const view = toolCallView(event.call.name, callArguments(event.call.arguments), cwd);
        const content: ToolCallContent[] = [];
        const diff = view.edits === undefined || !event.result.ok ? undefined : diffOf(view.edits, before.get(id));
        before.delete(id);
        if (diff !== undefined) content.push(diff);
        content.push(text(resultText(event.result)));
        send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: event.result.ok ? 'completed' : 'failed', content });
        return;
      }
      default:
        return;
    }
  };
}

/** What the editor shows for a result: its text, or for a failure its code and message. */
export function resultText(result: ToolResult): string {
  return result.ok ? result.content : `${result.error.code}: ${result.error.message}`;
}

function text(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } };
}

function diffOf(path: string, oldText: string | undefined): ToolCallContent | undefined {
  const newText = readText(path);
  if (newText === undefined || newText === oldText) return undefined;
  return { type: 'diff', path, oldText: oldText ?? null, newText };
}

function readText(path: string): string | undefined {
  try {
    if (statSync(path).size > DIFF_LIMIT_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
