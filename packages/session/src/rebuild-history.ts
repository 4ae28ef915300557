import {
  ApprovalLedger,
  currentRecords,
  INTERRUPTED_CALL_CONTENT,
  UNSTARTED_CALL_CONTENT,
  type InterruptedCall,
  type Message,
  type ModelToolCall,
  type RebuildHistoryOptions,
  type SessionHistory,
  type SessionRecord,
  type ToolMessage,
} from '@weir/core';

/** The `turn_end` reason of a turn that suspended on approvals (core's stop reason). */
const AWAITING_APPROVAL = 'awaiting_approval';

interface OpenCalls {
  readonly calls: readonly ModelToolCall[];
  readonly answers: Map<string, ToolMessage>;
  readonly started: Map<string, unknown>;
}

/**
 * Turns a session's records into the history a provider accepts: messages in order, each tool result
 * as a tool message right after the assistant message that asked for it (in call order), every call
 * id answered exactly once. Tool results that answer no open call (and repeated answers) are left out
 * of the messages; they stay in the records. A `rewind` record sets the history back to what it was
 * after an earlier record (`currentRecords`, in core). Never throws.
 */
export function rebuildHistory(all: readonly SessionRecord[], options: RebuildHistoryOptions = {}): SessionHistory {
  // A rewind record cuts the conversation back (docs/sessions.md, "Rewind"): only the current line counts.
  const records = currentRecords(all);
  const messages: Message[] = [];
  const interrupted: InterruptedCall[] = [];
  const pending: ModelToolCall[] = [];
  let open: OpenCalls | undefined;

  const answer = (callId: string, message: ToolMessage) => {
    if (open && open.calls.some((call) => call.id === callId) && !open.answers.has(callId)) open.answers.set(callId, message);
  };
  const close = (atEnd: boolean) => {
    if (!open) return;
    for (const call of open.calls) {
      const answered = open.answers.get(call.id);
      if (answered) {
        messages.push(answered);
      } else if (open.started.has(call.id)) {
        messages.push(errorMessage(call, INTERRUPTED_CALL_CONTENT));
        interrupted.push({ callId: call.id, toolName: call.name, arguments: open.started.get(call.id), started: true });
      } else if (atEnd && options.pending === 'leave') {
        pending.push(call);
      } else {
        messages.push(errorMessage(call, UNSTARTED_CALL_CONTENT));
        interrupted.push({ callId: call.id, toolName: call.name, arguments: call.arguments, started: false });
      }
    }
    open = undefined;
  };

  for (const record of records) {
    switch (record.type) {
      case 'message': {
        const { message } = record;
        if (message.role === 'tool') {
          answer(message.toolCallId, message);
          break;
        }
        close(false);
        messages.push(message);
        if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
          open = { calls: message.toolCalls, answers: new Map(), started: new Map() };
        }
        break;
      }
      case 'tool_call_started':
        if (open?.calls.some((call) => call.id === record.callId)) open.started.set(record.callId, record.arguments);
        break;
      case 'tool_result':
        answer(record.callId, {
          role: 'tool',
          toolCallId: record.callId,
          toolName: record.toolName,
          content: record.content,
          ...(record.parts === undefined ? {} : { parts: record.parts }),
          // Explicit either way, as the agent loop writes tool messages: a resumed history equals the live one.
          isError: !record.ok,
        });
        break;
      case 'turn_end':
        // A turn that suspended on an approval is not over: its waiting calls stay open, for the resume.
        if (record.reason !== AWAITING_APPROVAL) close(false);
        break;
      case 'compaction':
        // Recorded between steps, every call answered: the live history was cut at the same place.
        close(false);
        if (Number.isInteger(record.from) && Number.isInteger(record.count) && record.from >= 0 && record.count >= 0 && record.from + record.count <= messages.length) {
          messages.splice(record.from, record.count, { role: 'user', content: record.summary });
        }
        break;
      case 'session':
      case 'approval_decision':
      case 'approval_request':
      case 'rewind':
        break;
    }
  }
  close(true);
  const last = records.at(-1);
  return {
    messages,
    approvals: ApprovalLedger.from(records),
    interrupted,
    pending,
    turnOpen: last !== undefined && last.type !== 'session' && (last.type !== 'turn_end' || last.reason === AWAITING_APPROVAL),
  };
}

function errorMessage(call: ModelToolCall, content: string): ToolMessage {
  return { role: 'tool', toolCallId: call.id, toolName: call.name, content, isError: true };
}
