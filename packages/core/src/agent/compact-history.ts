import type { LanguageModel, Message, ModelResponse, UserMessage } from './model.js';
import { estimateTokens } from './estimate-tokens.js';
import type { CompactionPlan, CompactionTrigger } from './compaction-hook.js';
import type { SessionRecorder } from './session-recorder.js';

/** Options of `createAgent({ compact })`. */
export interface CompactOptions {
  /** Compact before a model call when the history is estimated at this many tokens or more. */
  readonly maxTokens: number;
  /** Steps (an assistant message and its tool messages) kept word for word at the end. Default 2. */
  readonly keepSteps?: number;
  /** The system prompt of the summary call. Default: `DEFAULT_COMPACT_PROMPT`. */
  readonly prompt?: string;
  /** The model that writes the summary. Default: the agent's. */
  readonly model?: LanguageModel;
  /**
   * Counts the history's tokens. Default: the last call's reported usage plus an estimate
   * (characters / 4) of what joined since, or the estimate of the whole history when none was reported.
   */
  readonly countTokens?: (messages: readonly Message[]) => number;
}

/** The default instructions of the summary call. */
export const DEFAULT_COMPACT_PROMPT =
  'You compact the earlier part of a conversation between a user, an assistant and its tools. Write a summary the assistant can continue from: ' +
  "the user's goals and constraints, decisions made, facts learned from tool results (file names, values, errors), what was done and what is left to do. " +
  'Be concise and specific; do not invent anything.';

/** How the summary message begins, so a reader (and a model) can tell it from the user's own words. */
export const SUMMARY_PREFIX = '[Summary of the earlier conversation]\n';

/** Default steps kept word for word. */
export const DEFAULT_KEEP_STEPS = 2;

/** One compaction: `count` messages from `from` replaced by `summary`. */
export interface Compaction {
  readonly from: number;
  readonly count: number;
  readonly summary: UserMessage;
  /** The summary call's answer (its usage goes to the budget). */
  readonly response: ModelResponse;
  readonly model: string;
}

/** Checks `compact` in `createAgent`: a programmer mistake throws `TypeError` there. */
export function checkCompactOptions(options: unknown): CompactOptions {
  const given = options as Partial<CompactOptions> | null;
  if (typeof given !== 'object' || given === null) throw new TypeError('createAgent: compact must be an object ({ maxTokens, keepSteps?, prompt?, model?, countTokens? }).');
  if (!(typeof given.maxTokens === 'number' && given.maxTokens > 0)) throw new TypeError(`createAgent: compact.maxTokens must be a positive number, got ${String(given.maxTokens)}.`);
  if (given.keepSteps !== undefined && !(Number.isInteger(given.keepSteps) && given.keepSteps >= 0)) throw new TypeError(`createAgent: compact.keepSteps must be an integer >= 0, got ${String(given.keepSteps)}.`);
  if (given.prompt !== undefined && typeof given.prompt !== 'string') throw new TypeError('createAgent: compact.prompt must be a string.');
  if (given.model !== undefined && typeof given.model?.complete !== 'function') throw new TypeError('createAgent: compact.model must implement LanguageModel.');
  if (given.countTokens !== undefined && typeof given.countTokens !== 'function') throw new TypeError('createAgent: compact.countTokens must be a function.');
  return given as CompactOptions;
}

/**
 * The agent's context policy: before a model call, when the history nears `maxTokens`, the older
 * steps are replaced by one summary (a user message starting with `SUMMARY_PREFIX`), written by a
 * model call. The system message and the last `keepSteps` steps stay word for word, and the cut
 * falls just before an assistant message, so every tool call stays with its result (a tool message
 * follows its assistant message, before the next one). Keeps, across turns, what it needs to count
 * cheaply: the last reported usage and the history length it covered.
 */
export class HistoryCompactor {
  readonly #options: CompactOptions;
  #usageTokens: number | undefined;
  #usageLength = 0;

  constructor(options: CompactOptions) {
    this.#options = options;
  }

  /** Tells the compactor what a call over `length` messages reported. */
  observe(length: number, response: ModelResponse): void {
    this.#usageTokens = response.usage === undefined ? undefined : response.usage.inputTokens + response.usage.outputTokens;
    this.#usageLength = length + 1;
  }

  /** The estimated size of the history. */
  count(messages: readonly Message[]): number {
    if (this.#options.countTokens !== undefined) return this.#options.countTokens(messages);
    if (this.#usageTokens !== undefined && this.#usageLength <= messages.length) return this.#usageTokens + estimateTokens(messages.slice(this.#usageLength));
    return estimateTokens(messages);
  }

  /**
   * The compaction due now. `auto`: only when the history is estimated at `maxTokens` or more;
   * `manual`: whatever its size. Either way there must be something to summarise (two messages or
   * more before the kept steps), and `before` (the harness's `compaction` taps) may cancel it before
   * the summary call. Early exits are values (`skipped`, `cancelled`); rejects only when the summary
   * call fails.
   */
  async plan(messages: readonly Message[], agentModel: LanguageModel, signal: AbortSignal | undefined, request: CompactionRequest): Promise<CompactionOutcome> {
    const tokens = this.count(messages);
    if (request.trigger === 'auto' && tokens < this.#options.maxTokens) return { status: 'skipped', reason: `the history is under the limit (${tokens} of ${this.#options.maxTokens} tokens)` };
    const from = messages[0]?.role === 'system' ? 1 : 0;
    const keep = this.#options.keepSteps ?? DEFAULT_KEEP_STEPS;
    const cut = cutIndex(messages, keep, from);
    if (cut - from < 2) return { status: 'skipped', reason: `there is too little to summarise: the last ${keep} step${keep === 1 ? '' : 's'} stay word for word, and fewer than two messages come before them` };
    const instructions = request.instructions?.trim() || undefined;
    let plan: CompactionPlan = Object.freeze({ trigger: request.trigger, instructions, replaced: cut - from, tokens });
    if (request.before !== undefined) plan = await request.before(plan);
    if (plan.cancelled !== undefined) return { status: 'cancelled', by: plan.cancelled.by, reason: plan.cancelled.reason };
    const model = this.#options.model ?? agentModel;
    const older = messages.slice(from, cut);
    const prompt = this.#options.prompt ?? DEFAULT_COMPACT_PROMPT;
    const response = await model.complete({
      messages: [
        { role: 'system', content: instructions === undefined ? prompt : `${prompt}\n\nInstructions for this summary, from the user: ${instructions}` },
        { role: 'user', content: `The conversation so far:\n\n${transcript(older)}\n\nWrite the summary now.` },
      ],
      tools: [],
      signal,
    });
    if (typeof response?.text !== 'string' || response.text.trim() === '') throw new Error(`the summary model ${model.id} answered without text`);
    const summary: UserMessage = Object.freeze({ role: 'user', content: `${SUMMARY_PREFIX}${response.text.trim()}` });
    this.#usageTokens = undefined;
    return { status: 'compacted', compaction: { from, count: cut - from, summary, response, model: response.model ?? model.id } };
  }
}

/** What `plan` is asked for. */
export interface CompactionRequest {
  readonly trigger: CompactionTrigger;
  readonly instructions?: string | undefined;
  /** Runs the harness's `compaction` taps on the plan; what it returns decides. */
  readonly before?: ((plan: CompactionPlan) => Promise<CompactionPlan>) | undefined;
}

/** What a compaction came to: done, nothing to do (and why), or cancelled by a `compaction` tap. */
export type CompactionOutcome =
  | { readonly status: 'compacted'; readonly compaction: Compaction }
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: 'cancelled'; readonly by: string; readonly reason: string };

/** Puts a compaction into the history (the summary in place of the messages it replaces) and queues its record. */
export function applyCompaction(messages: Message[], compaction: Compaction, recorder: SessionRecorder | undefined): void {
  messages.splice(compaction.from, compaction.count, compaction.summary);
  recorder?.compaction(compaction.from, compaction.count, compaction.summary.content);
}

/** Where the kept steps begin: the `keep`-th assistant message from the end (the end itself when `keep` is 0). */
function cutIndex(messages: readonly Message[], keep: number, from: number): number {
  // Nothing kept but a trailing user message (the question being answered): whole steps go, so pairs stay whole.
  if (keep === 0) return messages.at(-1)?.role === 'user' ? messages.length - 1 : messages.length;
  let seen = 0;
  for (let index = messages.length - 1; index >= from; index -= 1) {
    if (messages[index]!.role === 'assistant' && ++seen === keep) return index;
  }
  return from;
}

/** The older messages as plain text for the summary call. */
function transcript(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      if (message.role === 'tool') return `[tool ${message.toolName} result${message.isError === true ? ' (error)' : ''}]\n${message.content}`;
      if (message.role === 'assistant') {
        const calls = (message.toolCalls ?? []).map((call) => `[called ${call.name} ${typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)}]`);
        return [`[assistant]${message.content === '' ? '' : `\n${message.content}`}`, ...calls].join('\n');
      }
      return `[${message.role}]\n${message.content}`;
    })
    .join('\n\n');
}
