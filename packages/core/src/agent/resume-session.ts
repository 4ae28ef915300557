import type { Logger } from '../logger.js';
import type { Message, ModelToolCall } from './model.js';
import type { InterruptedCall } from './session-history.js';
import type { Session } from './session.js';
import { SessionRecorder } from './session-recorder.js';

/** Where an agent with a session starts from. */
export interface ResumedSession {
  /** The stored history, each message frozen; a new session's holds only the system message. */
  readonly messages: Message[];
  readonly recorder: SessionRecorder;
  /** The calls of a cut-off last turn that never started, left unanswered for `agent.resume()`. */
  readonly pending: readonly ModelToolCall[];
  /** Calls the history answered as interrupted. */
  readonly interrupted: readonly InterruptedCall[];
  /** The last turn was cut off with something left to do: calls to run, or a user message or results the model never answered. */
  readonly turnOpen: boolean;
}

/**
 * Rebuilds the history a session holds, for an agent to go on from, and the recorder for what comes
 * next (with `suspend`, one that suspends calls nobody can approve). The stored system message wins: `system` is recorded only when the session has no messages
 * yet (a different one is ignored, with a warning). Never throws.
 */
export function resumeSession(session: Session, system: string | undefined, logger: Logger, options: { readonly suspend?: boolean } = {}): ResumedSession {
  const history = session.history({ pending: 'leave' });
  const recorder = new SessionRecorder(session, history.approvals, options);
  const messages: Message[] = history.messages.map((message) => Object.freeze(message));
  if (messages.length === 0) {
    if (system !== undefined) {
      const first = Object.freeze({ role: 'system' as const, content: system });
      messages.push(first);
      recorder.message(first);
    }
  } else if (system !== undefined && !(messages[0]?.role === 'system' && messages[0].content === system)) {
    // The conversation is what it was: a prompt changed since would rewrite what the model already answered.
    logger.warn({ sessionId: session.id }, 'createAgent: the session keeps its own system message; the system option is ignored');
  }
  const last = messages.at(-1);
  // A last turn that ended with an answer only lacks its turn_end: nothing is left to do. A history
  // that ends with the user's message was never answered (the model call failed or was aborted):
  // that turn is open too, so resume() asks the model again instead of a new turn adding a second
  // user message in a row.
  const turnOpen = last?.role === 'user' || (history.turnOpen && (history.pending.length > 0 || last?.role === 'tool'));
  return { messages, recorder, pending: history.pending, interrupted: history.interrupted, turnOpen };
}
