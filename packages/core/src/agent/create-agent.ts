import type { Harness } from '../harness.js';
import { HarnessError } from '../harness-error.js';
import type { LanguageModel, Message } from '../model.js';
import type { AgentEvent, AgentEventListener } from './agent-event.js';
import { linkSignals } from './link-signals.js';
import { runTurn } from './run-turn.js';
import type { TurnResult } from './turn-result.js';

/** Model calls one turn may make when `maxSteps` is not given. */
export const DEFAULT_MAX_STEPS = 20;

/** What `createAgent` needs: a model, a harness; the rest has defaults. */
export interface AgentOptions {
  readonly model: LanguageModel;
  /** Where the tools live: each step sends `harness.tools.schemas()` and runs calls through its pipeline. */
  readonly harness: Harness;
  /** The system prompt: the first message of the history. */
  readonly system?: string;
  /** Model calls per turn; the turn stops with `max_steps` when they run out. Default 20; `Infinity` for none. */
  readonly maxSteps?: number;
  /** Tool calls of one answer running at once. Default: the harness's (8). */
  readonly toolConcurrency?: number;
  /** Aborts the running turn and every later one (an application shutting down, say). */
  readonly signal?: AbortSignal;
}

/** Per-turn options of `agent.turn`. */
export interface TurnOptions {
  /** Aborts this turn: the model call and the running tools are cancelled; the turn ends with `aborted`. */
  readonly signal?: AbortSignal;
  readonly onEvent?: AgentEventListener;
  /** Ask the model to stream, for `text-delta` events. Default: true when `onEvent` is given. Needs `model.stream`. */
  readonly stream?: boolean;
}

/** A model, a harness and one history; `turn` runs the loop. */
export interface Agent {
  /**
   * The history, oldest first: the one array the agent appends to and every model call reads.
   * A read-only view: changing it is a mistake the types forbid (it is not copied for you).
   */
  readonly messages: readonly Message[];
  /**
   * Runs one turn of `text`. Resolves with the final text, the steps, the tool results, the usage
   * and why it stopped (aborts resolve with `aborted`). Rejects with `HarnessError`:
   * `MODEL_CALL_FAILED` (the model call failed; the cause is attached), `INVALID_MODEL_RESPONSE`,
   * or `AGENT_BUSY` when another turn of this agent is still running.
   */
  turn(text: string, options?: TurnOptions): Promise<TurnResult>;
}

/**
 * Creates an agent: a model, a harness and one history. Throws `TypeError` for invalid options
 * (a programmer mistake, caught where it is made).
 */
export function createAgent(options: AgentOptions): Agent {
  const { model, harness, system, signal: agentSignal } = options;
  if (typeof model?.complete !== 'function') throw new TypeError('createAgent: model must implement LanguageModel (a complete() method).');
  if (typeof harness?.executeToolCalls !== 'function') throw new TypeError('createAgent: harness must be made by createHarness().');
  if (system !== undefined && typeof system !== 'string') throw new TypeError('createAgent: system must be a string.');
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!(maxSteps === Number.POSITIVE_INFINITY || (Number.isInteger(maxSteps) && maxSteps > 0))) {
    throw new TypeError(`createAgent: maxSteps must be a positive integer or Infinity, got ${String(maxSteps)}.`);
  }
  const toolConcurrency = options.toolConcurrency;
  if (toolConcurrency !== undefined && !(Number.isInteger(toolConcurrency) && toolConcurrency > 0)) {
    throw new TypeError(`createAgent: toolConcurrency must be a positive integer, got ${String(toolConcurrency)}.`);
  }

  const messages: Message[] = system === undefined ? [] : [Object.freeze({ role: 'system', content: system })];
  let busy = false;

  const turn = async (text: string, turnOptions: TurnOptions = {}): Promise<TurnResult> => {
    if (typeof text !== 'string') throw new TypeError(`agent.turn: text must be a string, got ${typeof text}.`);
    // Two turns appending to one history at once would interleave their messages.
    if (busy) throw new HarnessError('AGENT_BUSY', 'agent.turn was called while another turn of this agent is running. Await it first.');
    busy = true;
    const linked = linkSignals(agentSignal, turnOptions.signal);
    try {
      return await runTurn(
        {
          model,
          harness,
          messages,
          maxSteps,
          toolConcurrency,
          signal: linked.signal,
          emit: guardListener(turnOptions.onEvent, harness),
          stream: turnOptions.stream ?? turnOptions.onEvent !== undefined,
        },
        text,
      );
    } finally {
      linked.unlink();
      busy = false;
    }
  };

  return Object.freeze({ messages, turn });
}

/** A listener that throws is logged and ignored: a UI's bug must not break the turn. */
function guardListener(listener: AgentEventListener | undefined, harness: Harness): ((event: AgentEvent) => void) | undefined {
  if (listener === undefined) return undefined;
  const report = (error: unknown, event: AgentEvent) =>
    harness.logger.warn({ err: error, event: event.type }, 'an agent event listener failed; the turn goes on');
  return (event) => {
    try {
      const returned: unknown = listener(event);
      // An async listener is not awaited, but its rejection must not go unhandled.
      if (returned instanceof Promise) returned.catch((error: unknown) => report(error, event));
    } catch (error) {
      report(error, event);
    }
  };
}
