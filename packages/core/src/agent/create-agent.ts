import { checkParts, hasRichParts, textOfParts, type Content, type ContentPart } from '../tools/content-part.js';
import { deepFreeze } from '../deep-freeze.js';
import type { Harness } from '../harness.js';
import { HarnessError } from '../harness-error.js';
import type { LanguageModel, Message, ModelCallOptions, ModelToolCall, Usage } from './model.js';
import { checkCallOptions } from './merge-call-options.js';
import { statesPrice } from './model-metadata.js';
import type { InterruptedCall } from './session-history.js';
import type { Session } from './session.js';
import type { AgentEvent, AgentEventListener } from './agent-event.js';
import { linkSignals } from './link-signals.js';
import { runTurn, type TurnContext, type TurnInput } from './run-turn.js';
import { resumeSession } from './resume-session.js';
import { toolMessage, unstartedResults } from './tool-messages.js';
import type { TurnResult } from './turn-result.js';
import { BudgetMeter, checkBudget, type Budget } from './budget.js';
import { applyCompaction, checkCompactOptions, HistoryCompactor, type CompactOptions } from './compact-history.js';
import { compactionTaps } from './compaction-taps.js';
import { DEFAULT_MAX_OUTPUT_ATTEMPTS, FinalAnswer } from './final-answer.js';
import type { PrepareStep } from './prepare-step.js';
import type { TurnPolicies } from './turn-policies.js';
import { ToolSearch } from './tool-search/tool-search.js';
import { checkToolSearch, type ToolSearchOptions } from './tool-search/tool-search-options.js';
import { PARENT_LINK, type ParentLink } from './turn-scope.js';
import type { InferParameters } from '../tools/infer-schema.js';
import type { JsonSchema, StandardJsonSchema } from '../tools/schema-validator.js';

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
  /**
   * An open session (`store.create()` or `store.open(id)`) the conversation lives in. The history
   * starts as the session's (its stored system message wins over `system`, which is recorded only
   * when the session has no messages yet), and every turn records its messages, each call's start
   * and result, the approval answers and its end. The caller opens and closes the session; one
   * agent per session.
   */
  readonly session?: Session;
  /**
   * Limits on each turn (steps, tokens, dollars, wall time): the turn stops with
   * `budget_exhausted` at the first step that would exceed one. See docs/agent-loop.md, "Budgets".
   */
  readonly budget?: Budget;
  /** Chooses the tools offered and the model of each step from the history so far. See "Per-step preparation". */
  readonly prepareStep?: PrepareStep;
  /** Replaces older steps by a summary when the history nears a token limit. See "Context compaction". */
  readonly compact?: CompactOptions;
  /**
   * Options sent with every model call (output limit, temperature, reasoning, tool choice, cache
   * hints); `prepareStep` may override them per step. See docs/design.md, "Model calls".
   */
  readonly modelOptions?: ModelCallOptions;
  /**
   * Tools loaded on demand: past `threshold` tokens of tool schemas (`when: 'auto'`, the default),
   * a step offers a `tool_search` tool instead of every schema, and each tool the model finds joins
   * the offered tools for the rest of the turn. `{ when: 'never' }` sends every schema, always.
   * See docs/agent-loop.md, "Tool search".
   */
  readonly toolSearch?: ToolSearchOptions;
  /**
   * What a call that needs approval gets when the harness has no approval responder and the session
   * holds no answer for it: `'deny'` (the default) denies it; `'suspend'` (needs `session`) stores
   * the request in the session (an `approval_request` record) and ends the turn with
   * `awaiting_approval`. Any process then answers it (`answerApproval` in @weir/session) and any
   * process resumes the session (`agent.resume()`), which runs an allowed call once with exactly the
   * arguments that were approved. See docs/sessions.md, "Approvals that outlive the process".
   */
  readonly onUnansweredApproval?: 'deny' | 'suspend';
}

/** Per-turn options of `agent.turn`. */
export interface TurnOptions {
  /** Aborts this turn: the model call and the running tools are cancelled; the turn ends with `aborted`. */
  readonly signal?: AbortSignal;
  readonly onEvent?: AgentEventListener;
  /** Ask the model to stream, for `text-delta` events. Default: true when `onEvent` is given. Needs `model.stream`. */
  readonly stream?: boolean;
  /**
   * A structured final answer (JSON Schema or Standard Schema): the model gives it by calling the
   * `final_answer` tool, offered beside the tools; `result.output` carries the validated value.
   */
  readonly output?: JsonSchema | StandardJsonSchema;
  /** Invalid structured answers allowed before the turn stops with `output_invalid`. Default 3. */
  readonly maxOutputAttempts?: number;
}

/** Options of `agent.compact()`. */
export interface CompactNowOptions {
  /** What the summary should keep or focus on (`/compact <instructions>`); joins the summary call's prompt. */
  readonly instructions?: string;
  /** Cancels the summary call: the history stays as it was. */
  readonly signal?: AbortSignal;
}

/** What `agent.compact()` came to: done, nothing done (and why), or cancelled by a `compaction` tap (and why). */
export type CompactResult =
  | {
      readonly status: 'compacted';
      readonly replaced: number;
      readonly summary: string;
      readonly model: string;
      /** The summary call's tokens, when its model reported them (no turn's `usage` counts a summary call, automatic ones included; the budget does). */
      readonly usage?: Usage;
    }
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: 'cancelled'; readonly by: string; readonly reason: string };

/** `turn` options asking for a structured answer of schema `S`. */
export type OutputTurnOptions<S extends JsonSchema | StandardJsonSchema> = TurnOptions & { readonly output: S };

/** A turn result whose `output` is typed from the schema (present when the turn stopped with `stop`). */
export type OutputTurnResult<T> = TurnResult & { readonly output?: T };

/** A model, a harness and one history; `turn` runs the loop. */
export interface Agent {
  /**
   * The history, oldest first: the one array the agent appends to and every model call reads.
   * A read-only view: changing it is a mistake the types forbid (it is not copied for you).
   */
  readonly messages: readonly Message[];
  /**
   * The calls the session's history answered as interrupted when the agent was created (they have
   * no recorded result): `started: true` ones may or may not have taken effect. Empty without a session.
   */
  readonly interrupted: readonly InterruptedCall[];
  /**
   * The calls of the session's last turn that were requested and never started, still unanswered:
   * `resume()` runs them, the next `turn()` answers them as not run. Empty without a session.
   */
  readonly pending: readonly ModelToolCall[];
  /** True when the session's last turn was cut off before its end: `resume()` finishes it. */
  readonly turnOpen: boolean;
  /**
   * Runs one turn of `text`: a string, or content parts (text, images, resources) for a user
   * message with more than text (`content` is then their text, `parts` the whole list). Resolves with the final text, the steps, the tool results, the usage
   * and why it stopped (aborts resolve with `aborted`). Rejects with `HarnessError`:
   * `MODEL_CALL_FAILED` (the model call failed; the cause is attached), `INVALID_MODEL_RESPONSE`,
   * `AGENT_BUSY` when another turn of this agent is still running, and, with a session,
   * `SESSION_WRITE_FAILED` or `INVALID_SESSION_RECORD` when a record fails: the turn stops there,
   * no later tool body runs, and every later turn rejects with the same error (reopen the session).
   */
  turn<const S extends JsonSchema | StandardJsonSchema>(text: Content, options: OutputTurnOptions<S>): Promise<OutputTurnResult<InferParameters<S>>>;
  turn(text: Content, options?: TurnOptions): Promise<TurnResult>;
  /**
   * Finishes the turn the session's last process left open (`turnOpen`): runs its `pending` calls
   * through the pipeline (stored approval decisions are reused, nobody is asked twice), then goes
   * on like a turn, without new user text. Resolves at once with `stop` and no steps when no turn is
   * open. A turn that ended `awaiting_approval` is open: `resume()` (here or in any process that
   * opens the session) runs its waiting calls, each as its stored answer says, or suspends them
   * again while unanswered. Rejects like `turn`.
   */
  resume(options?: TurnOptions): Promise<TurnResult>;
  /**
   * Compacts the history now, between turns, whatever its size (the `manual` trigger): the older
   * steps become one summary as `compact` does before a step (its options, or the defaults without
   * them), recorded in the session and made durable. The harness's `compaction` taps may cancel it
   * (`cancelled`, with the reason). `skipped` when there is too little to summarise, the session's
   * last turn is still open, or the signal aborted. Rejects with `AGENT_BUSY` during a turn,
   * `MODEL_CALL_FAILED` when the summary call fails (the history unchanged), and the session's error.
   */
  compact(options?: CompactNowOptions): Promise<CompactResult>;
}

/**
 * Creates an agent: a model, a harness and one history. Throws `TypeError` for invalid options
 * (a programmer mistake, caught where it is made).
 */
export function createAgent(options: AgentOptions): Agent {
  const { model, harness, system, signal: agentSignal, session } = options;
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

  if (session !== undefined && !isSession(session)) {
    throw new TypeError('createAgent: session must be an open Session (from store.create() or store.open()).');
  }
  const unanswered = options.onUnansweredApproval ?? 'deny';
  if (unanswered !== 'deny' && unanswered !== 'suspend') {
    throw new TypeError(`createAgent: onUnansweredApproval must be 'deny' or 'suspend', got ${String(unanswered)}.`);
  }
  // A suspended call lives in the session; without one it would be lost with the process.
  if (unanswered === 'suspend' && session === undefined) throw new TypeError("createAgent: onUnansweredApproval: 'suspend' needs a session to keep the request in.");
  const budget = options.budget === undefined ? undefined : checkBudget(options.budget, statesPrice(model));
  const modelOptions = options.modelOptions === undefined ? undefined : checkCallOptions(options.modelOptions, 'createAgent: modelOptions');
  const warned = new Set<string>();
  const { prepareStep } = options;
  if (prepareStep !== undefined && typeof prepareStep !== 'function') throw new TypeError('createAgent: prepareStep must be a function.');
  const compactor = options.compact === undefined ? undefined : new HistoryCompactor(checkCompactOptions(options.compact));
  const parent = (options as { readonly [PARENT_LINK]?: ParentLink })[PARENT_LINK];
  const searchSettings = checkToolSearch(options.toolSearch, model.metadata?.contextWindow);
  const toolSearch = searchSettings === undefined ? undefined : new ToolSearch(searchSettings);
  const hasPolicies = budget !== undefined || prepareStep !== undefined || compactor !== undefined || parent !== undefined || toolSearch !== undefined;

  const resumed = session === undefined ? undefined : resumeSession(session, system, harness.logger, { suspend: unanswered === 'suspend' });
  const messages: Message[] = resumed?.messages ?? (system === undefined ? [] : [Object.freeze({ role: 'system', content: system })]);
  const recorder = resumed?.recorder;
  let pending = resumed?.pending ?? NO_CALLS;
  let turnOpen = resumed?.turnOpen ?? false;
  let busy = false;
  // Ids of every tool call in the history (a resumed session's too): new calls never reuse one.
  const usedCallIds = new Set<string>();
  for (const message of messages) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) usedCallIds.add(call.id);

  const run = async (method: string, input: TurnInput, turnOptions: TurnOptions): Promise<TurnResult> => {
    // Two turns appending to one history at once would interleave their messages.
    if (busy) throw new HarnessError('AGENT_BUSY', `agent.${method} was called while another turn of this agent is running. Await it first.`);
    busy = true;
    const linked = linkSignals(agentSignal, turnOptions.signal);
    try {
      // Only a turn with a policy gets any: the loop of one without does no extra work per step.
      const policies = hasPolicies || turnOptions.output !== undefined ? turnPolicies(turnOptions) : undefined;
      const context: TurnContext = {
        model,
        harness,
        messages,
        maxSteps,
        toolConcurrency,
        recorder,
        signal: linked.signal,
        emit: guardListener(turnOptions.onEvent, harness),
        stream: turnOptions.stream ?? turnOptions.onEvent !== undefined,
        usedCallIds,
        policies,
        modelOptions,
        warned,
      };
      // A turn whose signal has already aborted never starts (runTurn leaves everything as it was).
      if (turnOpen && !linked.signal?.aborted) {
        recorder?.check();
        // The user moved on: the calls left unrun are answered as such, as a rebuilt history answers them.
        if ('text' in input) {
          for (const result of unstartedResults(pending)) {
            messages.push(Object.freeze(toolMessage(result)));
            recorder?.result(result);
          }
        }
        // From here the cut-off turn is either finished (resume) or left behind (a new turn).
        pending = NO_CALLS;
        turnOpen = false;
      }
      const result = await runTurn(context, input);
      if (result.stopReason === 'awaiting_approval') {
        // The turn is open again: resume() runs the waiting calls (this process, once it can answer, or another).
        const waiting = new Set(result.awaitingApproval?.map((call) => call.callId));
        const asked = messages.findLast((message) => message.role === 'assistant');
        pending = Object.freeze((asked?.role === 'assistant' ? (asked.toolCalls ?? NO_CALLS) : NO_CALLS).filter((call) => waiting.has(call.id)));
        turnOpen = true;
      }
      return result;
    } finally {
      linked.unlink();
      busy = false;
    }
  };

  function turnPolicies(turnOptions: TurnOptions): TurnPolicies {
    const meter = budget === undefined && parent?.budget === undefined ? undefined : new BudgetMeter(budget ?? {}, parent?.budget);
    return { budget: meter, compactor, prepareStep, toolSearch: toolSearch?.turn(), output: finalAnswer(turnOptions), parentCallKey: parent?.callKey };
  }

  let manualCompactor: HistoryCompactor | undefined;
  const compactNow = async (compactOptions: CompactNowOptions): Promise<CompactResult> => {
    if (busy) throw new HarnessError('AGENT_BUSY', 'agent.compact was called while a turn of this agent is running. Await it first.');
    if (compactOptions.instructions !== undefined && typeof compactOptions.instructions !== 'string') throw new TypeError('agent.compact: instructions must be a string.');
    busy = true;
    const linked = linkSignals(agentSignal, compactOptions.signal);
    try {
      recorder?.check();
      if (turnOpen) return { status: 'skipped', reason: "the session's last turn is still open: finish it (resume) or start a new turn first" };
      if (linked.signal?.aborted) return { status: 'skipped', reason: 'aborted' };
      const using = compactor ?? (manualCompactor ??= new HistoryCompactor({ maxTokens: Number.POSITIVE_INFINITY }));
      let outcome;
      try {
        outcome = await using.plan(messages, model, linked.signal, { trigger: 'manual', instructions: compactOptions.instructions, before: compactionTaps(harness, undefined) });
      } catch (error) {
        if (linked.signal?.aborted) return { status: 'skipped', reason: 'aborted' };
        throw new HarnessError('MODEL_CALL_FAILED', `Compacting the history failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      if (outcome.status !== 'compacted') return outcome;
      if (linked.signal?.aborted) return { status: 'skipped', reason: 'aborted' };
      const { compaction } = outcome;
      applyCompaction(messages, compaction, recorder);
      await recorder?.checkpoint();
      const usage = compaction.response.usage;
      return { status: 'compacted', replaced: compaction.count, summary: compaction.summary.content, model: compaction.model, ...(usage === undefined ? {} : { usage }) };
    } finally {
      linked.unlink();
      busy = false;
    }
  };

  const agent: Agent = {
    messages,
    interrupted: resumed?.interrupted ?? NO_INTERRUPTED,
    get pending() {
      return pending;
    },
    get turnOpen() {
      return turnOpen;
    },
    turn: (text: Content, turnOptions: TurnOptions = {}): Promise<TurnResult> => {
      if (typeof text !== 'string') {
        const problem = checkParts(text);
        if (problem !== undefined) return Promise.reject(new TypeError(`agent.turn: text must be a string or content parts (${problem}).`));
        const parts = text as readonly ContentPart[];
        const input = hasRichParts(parts) ? { text: textOfParts(parts), parts: deepFreeze(structuredClone(parts)) } : { text: textOfParts(parts) };
        return run('turn', input, turnOptions);
      }
      return run('turn', { text }, turnOptions);
    },
    resume: (turnOptions = {}) => {
      if (!turnOpen) return Promise.resolve({ text: '', stopReason: 'stop', steps: [], toolResults: [], usage: undefined });
      return run('resume', { resume: pending }, turnOptions);
    },
    compact: (compactOptions = {}) => compactNow(compactOptions),
  };
  return Object.freeze(agent);
}

const NO_CALLS: readonly ModelToolCall[] = Object.freeze([]);

/** The turn's structured answer, when it asks for one. Throws `TypeError` (rejecting the turn) for a bad schema or bound. */
function finalAnswer(turnOptions: TurnOptions): FinalAnswer | undefined {
  if (turnOptions.output === undefined) return undefined;
  const attempts = turnOptions.maxOutputAttempts ?? DEFAULT_MAX_OUTPUT_ATTEMPTS;
  if (!(Number.isInteger(attempts) && attempts > 0)) throw new TypeError(`agent.turn: maxOutputAttempts must be a positive integer, got ${String(attempts)}.`);
  try {
    return new FinalAnswer(turnOptions.output, attempts);
  } catch (error) {
    throw new TypeError(`agent.turn: output is not a valid schema: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
const NO_INTERRUPTED: readonly InterruptedCall[] = Object.freeze([]);

function isSession(value: unknown): value is Session {
  const candidate = value as Partial<Session> | null;
  return typeof candidate?.append === 'function' && typeof candidate.history === 'function' && typeof candidate.sync === 'function';
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
