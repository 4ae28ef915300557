import type { ContentPart } from '../tools/content-part.js';
import type { Message } from './model.js';

/** The schema version every record carries as `v`. A reader refuses any other. */
export const SESSION_RECORD_VERSION = 1;

/** The first record of every session, written by the store (never appended by callers). */
export interface SessionMeta {
  readonly type: 'session';
  readonly id: string;
  /** ISO 8601 time of creation. */
  readonly created: string;
  /** Set on a fork: the source session and the last of its records that the fork copied. */
  readonly forkedFrom?: { readonly id: string; readonly seq: number };
  readonly title?: string;
}

/**
 * What a caller appends; the store adds `v`, `seq` and `at`. Values must be JSON: they are stored as
 * `JSON.stringify` writes them (an `undefined` property disappears).
 */
export type SessionEntry =
  /** A system, user or assistant message (tool answers are `tool_result` records). */
  | { readonly type: 'message'; readonly message: Message }
  /** Recorded just before the tool body runs, with the exact arguments it gets. */
  | { readonly type: 'tool_call_started'; readonly callId: string; readonly toolName: string; readonly arguments: unknown }
  /** The call's final result: what the model reads as the tool message. */
  | {
      readonly type: 'tool_result';
      readonly callId: string;
      readonly toolName: string;
      readonly ok: boolean;
      readonly content: string;
      /** The whole content when it holds more than text (`ToolResult.parts`); absent for text-only results. */
      readonly parts?: readonly ContentPart[];
      readonly error?: { readonly code: string; readonly message: string };
    }
  /**
   * An approval answer, bound to the execution (its call key) and to the hash of the exact arguments
   * it was shown. `callId` is the model's id, kept for reading; `callKey` is what a resume matches
   * on (absent in sessions written before it: those answers are not reused).
   */
  | {
      readonly type: 'approval_decision';
      readonly callId: string;
      readonly callKey?: string;
      readonly toolName: string;
      readonly argsHash: string;
      readonly decision: 'allow' | 'deny';
      readonly message?: string;
    }
  /**
   * A call that needs approval was suspended: nobody in the writing process could answer
   * (`onUnansweredApproval: 'suspend'`), so the request waits here, durably, for an
   * `approval_decision` with the same `callKey` and `argsHash` appended by any process
   * (`answerApproval` in @weir/session). `arguments` are the exact, final arguments the person is
   * shown and the body would get; `argsHash` is their `argumentsHash`.
   */
  | {
      readonly type: 'approval_request';
      readonly callId: string;
      readonly callKey: string;
      readonly toolName: string;
      readonly tier: string;
      readonly argsHash: string;
      readonly arguments: unknown;
      readonly reason?: string;
      readonly askedBy?: string;
    }
  /** The turn ended (the model answered without tool calls, or a stop condition). */
  | { readonly type: 'turn_end'; readonly reason?: string }
  /**
   * The history was compacted: its `count` messages from position `from` (in the history as it was
   * rebuilt up to this record) were replaced by one user message whose content is `summary`.
   */
  | { readonly type: 'compaction'; readonly from: number; readonly count: number; readonly summary: string }
  /**
   * The conversation was rewound: from here on the history is what it was just after record `toSeq`
   * (an earlier record), and the records between are out of it (they stay in the file). `undoes`, on
   * a redo, names the rewind record this one takes back (its `toSeq` is then the record before it).
   */
  | { readonly type: 'rewind'; readonly toSeq: number; readonly undoes?: number };

/** One line of a session file: `seq` counts from 1 (the meta record) with no gap; `at` is ISO 8601. */
export type SessionRecord = (SessionMeta | SessionEntry) & {
  readonly v: typeof SESSION_RECORD_VERSION;
  readonly seq: number;
  readonly at: string;
};
