import { modelCallHookOf, turnHookOf, type ExecuteManyOptions, type Harness, type ProgressListener } from '../harness.js';
import { hasTaps } from '../plugins/hooks.js';
import { since } from '../pipeline/call-event.js';
import type { TurnEvent, TurnInfo } from './turn-event.js';
import { HarnessError, isHarnessError } from '../harness-error.js';
import type { AssistantMessage, LanguageModel, Message, ModelCallOptions, ModelResponse, ModelToolCall, Usage, UserMessage } from './model.js';
import { withToolCalls } from './assistant-parts.js';
import { mergeCallOptions } from './merge-call-options.js';
import { metadataFor } from './model-metadata.js';
import type { ContentPart } from '../tools/content-part.js';
import type { ToolResult } from '../tools/tool-result.js';
import { addUsage } from './add-usage.js';
import { newCallKey } from '../pipeline/call-key.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import type { AgentEvent } from './agent-event.js';
import { callModel } from './call-model.js';
import type { ModelCallRun } from './model-call-wrap.js';
import type { SessionRecorder } from './session-recorder.js';
import type { AwaitingApproval } from './awaiting-approval.js';
import { notExecutedResults, toolMessage } from './tool-messages.js';
import type { AgentStep, StopReason, TurnResult } from './turn-result.js';
import type { BudgetName } from './budget.js';
import { usageOrEstimate } from './estimate-tokens.js';
import { FINAL_ANSWER_TOOL } from './final-answer.js';
import { plannedStep, refuseUnoffered, type PlannedStep } from './prepare-step.js';
import type { TurnPolicies } from './turn-policies.js';
import { lendScope } from './turn-scope.js';
import { applyCompaction } from './compact-history.js';
import { compactionTaps } from './compaction-taps.js';
import { TOOL_SEARCH_TOOL } from './tool-search/tool-catalog.js';

/** Everything one turn reads. `messages` is the agent's own history: the turn appends to it in place. */
export interface TurnContext {
  /** The agent's session, when it has one: every message, each call's start and result, and the turn's end are recorded. */
  readonly recorder: SessionRecorder | undefined;
  readonly model: LanguageModel;
  readonly harness: Harness;
  readonly messages: Message[];
  readonly maxSteps: number;
  readonly toolConcurrency: number | undefined;
  readonly signal: AbortSignal | undefined;
  /** Already guarded against listener errors; `undefined` when nobody listens, so no event is built. */
  readonly emit: ((event: AgentEvent) => void) | undefined;
  /** Ask for text deltas (the model streams if it can). */
  readonly stream: boolean;
  /** Every tool call id in the agent's history: a new call never reuses one. */
  readonly usedCallIds: Set<string>;
  /** The run policies of this turn; `undefined` when none is configured, so a step does no extra work. */
  readonly policies: TurnPolicies | undefined;
  /** The agent's call options (`modelOptions`), sent with every call unless a step overrides them. */
  readonly modelOptions: ModelCallOptions | undefined;
  /** Adapter warnings already logged by this agent: each is logged once. */
  readonly warned: Set<string>;
}

const NO_RESULTS: readonly ToolResult[] = Object.freeze([]);
const NOTHING_WAITING: readonly AwaitingApproval[] = Object.freeze([]);
const ABORTED = Symbol('aborted');
const NO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** What starts a turn: the user's text, or (resuming a session) the calls its last turn left unrun. */
export type TurnInput = { readonly text: string; readonly parts?: readonly ContentPart[] } | { readonly resume: readonly ModelToolCall[] };

/**
 * One turn: the user's text, then steps until the model answers without tool calls or a stop
 * condition holds. Each step has three phases: think (one model call over the whole history),
 * act (run the answer's tool calls through the pipeline, or refuse to run them), observe (every
 * result, success or error, goes into the history as a tool message). Nothing here copies the
 * history: a step costs the same at step 1,000 as at step 10.
 *
 * With a session, each message is recorded as it joins the history, each call's start before its
 * body runs (durably, unless the tool is read-only), each result, a sync after each batch, and the
 * turn's end (durably, whatever the stop reason). A call the session's approval memory suspended
 * (no responder, `onUnansweredApproval: 'suspend'`) gets no tool message: after its batch the turn
 * ends `awaiting_approval`, its calls still open for `agent.resume()`.
 *
 * Resolves with a stop reason for every expected end, aborts included. Rejects when the model call
 * fails (`MODEL_CALL_FAILED`) or answers outside the spec (`INVALID_MODEL_RESPONSE`), the history
 * then holding every step that completed, each tool call answered; and with the session's error
 * (`SESSION_WRITE_FAILED`, `INVALID_SESSION_RECORD`) as soon as a record fails: the turn stops there.
 */
export async function runTurn(context: TurnContext, input: TurnInput): Promise<TurnResult> {
  const { messages, maxSteps, signal, emit, recorder, policies } = context;
  const steps: AgentStep[] = [];
  const toolResults: ToolResult[] = [];
  // One run per turn: every call of the turn carries it (journals, queues and traces key on it).
  const parentCallKey = policies?.parentCallKey;
  const run = Object.freeze(parentCallKey === undefined ? { id: newCallKey() } : { id: newCallKey(), parentCallKey });
  const options = { signal, concurrency: context.toolConcurrency, approvals: recorder?.approvals, journal: recorder?.journal, run };
  // A subagent tool called in this turn finds the harness, the budget and the listener through its run.
  lendScope(run, { harness: context.harness, budget: policies?.budget, emit });
  let usage: Usage | undefined;
  let lastText = '';
  // The `turn` observers (tracing), read once: an unobserved turn builds no event and reads no clock.
  const tell = observeTurn(context, options.run);
  // The `modelCall` wraps (a tracing context around each call), read once: none, no closure per call.
  const wrap = modelCallWrap(context, options.run);
  const began = tell === undefined ? 0 : performance.now();

  const end = async (stopReason: StopReason, extra?: { readonly budget?: BudgetName; readonly output?: unknown; readonly awaitingApproval?: readonly AwaitingApproval[] }): Promise<TurnResult> => {
    // The end is durable before the caller hears of it: a turn that reports an end has recorded it.
    await recorder?.turnEnd(stopReason);
    const result: TurnResult = extra === undefined ? { text: lastText, stopReason, steps, toolResults, usage } : { text: lastText, stopReason, steps, toolResults, usage, ...extra };
    emit?.({ type: 'turn-end', result });
    tell?.({ type: 'turn-end', result, durationMs: since(began) });
    return result;
  };

  // A session that failed no longer matches the history: nothing more is done with it.
  recorder?.check();
  const text = 'text' in input ? input.text : '';
  emit?.('text' in input ? { type: 'turn-start', text } : { type: 'turn-start', text, resumed: true });
  tell?.({ type: 'turn-start', text, resumed: !('text' in input) });
  // A turn whose signal has already aborted never starts: the history (and the session) stay as they were.
  if (signal?.aborted) {
    const result: TurnResult = { text: '', stopReason: 'aborted', steps, toolResults, usage };
    emit?.({ type: 'turn-end', result });
    tell?.({ type: 'turn-end', result, durationMs: since(began) });
    return result;
  }

  try {
    if ('text' in input) {
      const user: UserMessage = Object.freeze(input.parts === undefined ? { role: 'user', content: text } : { role: 'user', content: text, parts: input.parts });
      messages.push(user);
      recorder?.message(user);
    } else if (input.resume.length > 0) {
      // The calls the last process never started: they run now, through the whole pipeline (stored approvals reused).
      const results = await act(context, 0, input.resume, options);
      const waiting = recorder?.takeSuspended() ?? NOTHING_WAITING;
      observe(context, 0, input.resume, results, toolResults, waiting);
      await recorder?.checkpoint();
      // Still unanswered: the turn suspends again, the calls stay open in the session.
      if (waiting.length > 0) return await end('awaiting_approval', { awaitingApproval: waiting });
    }

    for (;;) {
      if (signal?.aborted) return await end('aborted');
      if (steps.length >= maxSteps) return await end('max_steps');
      recorder?.check();
      const index = steps.length + 1;
      let planned: PlannedStep | undefined;
      if (policies !== undefined) {
        const exhausted = policies.budget?.exhausted();
        if (exhausted !== undefined) return await end('budget_exhausted', { budget: exhausted });
        if (policies.compactor !== undefined && (await compact(context, policies, index, tell, run.id)) === ABORTED) return await end('aborted');
        // Tool search alone is decided synchronously: a step whose tools stay under the threshold costs one identity check.
        planned =
          policies.prepareStep === undefined && policies.output === undefined
            ? policies.toolSearch?.plan(context.harness.tools.schemas(), undefined, context.model)
            : await planStep(context, policies, index);
      }

      const answered = await think(context, index, tell, wrap, planned);
      if (answered === ABORTED) return await end('aborted');
      if (policies !== undefined) {
        const stepModel = planned?.model ?? context.model;
        const modelId = answered.model ?? stepModel.id;
        const budget = policies.budget;
        // Estimating walks the history: only when a limit counts tokens and the provider reported none.
        if (budget !== undefined) budget.charge(modelId, budget.countsTokens ? usageOrEstimate(messages, answered) : (answered.usage ?? NO_USAGE), true, metadataFor(stepModel, modelId)?.prices);
        policies.compactor?.observe(messages.length, answered);
      }
      // Checked and given unique ids before the answer joins the history: a malformed call leaves it answerable.
      const normalized = normalizeToolCalls(context.model, answered.toolCalls, context.usedCallIds, index);
      const response: ModelResponse =
        normalized.length === 0 && answered.toolCalls.length === 0
          ? answered
          : answered.parts === undefined
            ? { ...answered, toolCalls: normalized }
            : // The parts carry the normalized calls too: the ids and keys the history and the results use.
              { ...answered, toolCalls: normalized, parts: withToolCalls(answered.parts, normalized) };
      usage = addUsage(usage, response.usage);
      lastText = response.text !== '' ? response.text : (response.refusal ?? '');
      const assistant = assistantMessage(response, lastText);
      messages.push(assistant);
      recorder?.message(assistant);

      const calls = response.toolCalls;
      // Tool calls of a cut-off, filtered or failed answer may be incomplete: they never run.
      const runnable = response.finishReason === 'stop' || response.finishReason === 'tool_calls';
      let results = NO_RESULTS;
      if (calls.length > 0 && runnable) {
        results = planned === undefined ? await act(context, index, calls, options) : await actPlanned(context, index, calls, options, planned);
      } else if (calls.length > 0) {
        results = notExecutedResults(calls, response.finishReason);
        // They never entered the pipeline, so its journal did not see them.
        if (recorder !== undefined) for (const result of results) recorder.result(result);
      }

      const waiting = calls.length > 0 ? (recorder?.takeSuspended() ?? NOTHING_WAITING) : NOTHING_WAITING;
      observe(context, index, calls, results, toolResults, waiting);
      steps.push({ index, response, toolResults: results, model: response.model ?? (planned?.model ?? context.model).id });
      // After each batch: every result durable, and any failed record stops the turn here.
      if (calls.length > 0) await recorder?.checkpoint();
      // Calls wait for an approval from elsewhere: the model cannot go on without their results.
      if (waiting.length > 0) return await end('awaiting_approval', { awaitingApproval: waiting });

      if (!runnable) return await end(response.finishReason as StopReason);
      const output = policies?.output;
      if (output !== undefined) {
        // A structured answer was asked for: the turn ends only with a valid one (or at the bound).
        const accepted = results.find((result, i) => result.ok && calls[i]!.name === FINAL_ANSWER_TOOL);
        if (accepted?.ok === true) return await end('stop', { output: accepted.value });
        if (calls.length === 0) {
          const read = await output.checkText(response.text);
          if (read.ok) return await end('stop', { output: read.value });
          if (!output.exhausted) {
            const reminder: UserMessage = Object.freeze({ role: 'user', content: read.reminder });
            messages.push(reminder);
            recorder?.message(reminder);
          }
        }
        if (output.exhausted) return await end('output_invalid');
        continue;
      }
      if (calls.length === 0) return await end('stop');
    }
  } catch (error) {
    // A turn that fails still closes its record, so a reader can tell a failed turn from a crash.
    if (recorder !== undefined && !recorder.failed) await recorder.turnEnd('failed').catch(() => undefined);
    tell?.({ type: 'turn-error', error, durationMs: since(began) });
    throw error;
  }
}

/** Phase 1: one model call over the whole history (the array itself, never a copy). */
async function think(context: TurnContext, index: number, tell: TurnObserver | undefined, wrap: ModelCallWrap | undefined, planned: PlannedStep | undefined): Promise<ModelResponse | typeof ABORTED> {
  const { harness, messages, signal, emit } = context;
  const model = planned === undefined ? context.model : planned.model;
  emit?.({ type: 'model-call-start', step: index });
  const tools = planned === undefined ? harness.tools.schemas() : planned.tools;
  const options = mergeCallOptions(context.modelOptions, planned?.options);
  const request = options === undefined ? { messages, tools, signal } : { messages, tools, signal, options };
  const onTextDelta = emit !== undefined && context.stream ? (delta: string) => emit({ type: 'text-delta', step: index, text: delta }) : undefined;
  let began = 0;
  if (tell !== undefined) {
    tell({ type: 'model-call-start', step: index, modelId: model.id, request });
    began = performance.now();
  }
  let response: ModelResponse;
  try {
    response = wrap === undefined ? await callModel(model, request, onTextDelta) : await wrap(() => callModel(model, request, onTextDelta))();
  } catch (error) {
    const aborted = signal?.aborted === true;
    if (!aborted && !isHarnessError(error, 'INVALID_MODEL_RESPONSE')) {
      const reason = error instanceof Error ? error.message : String(error);
      error = new HarnessError('MODEL_CALL_FAILED', `Model ${model.id} failed at step ${index}: ${reason}`, { cause: error });
    }
    tell?.({ type: 'model-call-error', step: index, error, aborted, durationMs: since(began) });
    if (aborted) return ABORTED;
    throw error;
  }
  tell?.({ type: 'model-call-end', step: index, response, durationMs: since(began) });
  emit?.({ type: 'model-call-end', step: index, response });
  if (response.warnings !== undefined) warnOnce(context, model.id, response.warnings);
  return response;
}

/** Logs each adapter warning once per agent: an option the provider lacks is said, not repeated every step. */
function warnOnce(context: TurnContext, modelId: string, warnings: readonly string[]): void {
  for (const warning of warnings) {
    const key = `${modelId}\u0000${warning}`;
    if (context.warned.has(key)) continue;
    context.warned.add(key);
    context.harness.logger.warn({ model: modelId }, warning);
  }
}

type TurnObserver = (event: TurnEvent) => void;

/** Hands each event (frozen) to the harness's `turn` observers; `undefined` when nobody taps the hook. */
function observeTurn(context: TurnContext, run: TurnInfo['run']): TurnObserver | undefined {
  const hook = turnHookOf(context.harness);
  if (hook === undefined || !hasTaps(hook)) return undefined;
  const info: TurnInfo = Object.freeze({ run, modelId: context.model.id, logger: context.harness.logger });
  return (event) => hook.call(Object.freeze(event), info);
}

type ModelCallWrap = (run: ModelCallRun) => ModelCallRun;

/** The run of a model call as the `modelCall` taps wrap it; `undefined` when nobody taps the hook. */
function modelCallWrap(context: TurnContext, run: TurnInfo['run']): ModelCallWrap | undefined {
  const hook = modelCallHookOf(context.harness);
  if (hook === undefined || !hasTaps(hook)) return undefined;
  const info: TurnInfo = Object.freeze({ run, modelId: context.model.id, logger: context.harness.logger });
  return (call) => hook.call(call, info) ?? call;
}

/** Phase 2: the answer's calls through the six stages, bounded concurrency, results in call order. */
function act(context: TurnContext, index: number, calls: readonly ModelToolCall[], options: ExecuteManyOptions): Promise<readonly ToolResult[]> {
  const { emit } = context;
  if (emit === undefined) return context.harness.executeToolCalls(calls, options);
  for (const call of calls) emit({ type: 'tool-start', step: index, call });
  const onProgress: ProgressListener = (update, call) => emit({ type: 'tool-progress', step: index, callId: call.callId, toolName: call.toolName, update });
  return context.harness.executeToolCalls(calls, { ...options, onProgress });
}

/**
 * Before a step, with policies: the step's model and tools (`prepareStep`), shaped by tool search,
 * plus `final_answer` when a structured answer is asked for. What `prepareStep` throws rejects the
 * turn (`POLICY_FAILED`).
 */
async function planStep(context: TurnContext, policies: TurnPolicies, index: number): Promise<PlannedStep | undefined> {
  const { prepareStep, toolSearch, output } = policies;
  const tools = context.harness.tools.schemas();
  let planned: PlannedStep | undefined;
  if (prepareStep !== undefined) {
    try {
      planned = plannedStep(await prepareStep({ step: index, messages: context.messages, model: context.model, tools }), context.model, tools);
    } catch (error) {
      throw new HarnessError('POLICY_FAILED', `prepareStep failed at step ${index}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  if (toolSearch !== undefined) planned = toolSearch.plan(tools, planned, context.model);
  if (output === undefined) return planned;
  if (tools.some((tool) => tool.name === FINAL_ANSWER_TOOL)) {
    throw new HarnessError('POLICY_FAILED', `A structured answer needs the tool name "${FINAL_ANSWER_TOOL}", and the registry has a tool of that name.`);
  }
  const step = planned ?? plannedStep(undefined, context.model, tools);
  const offered = new Set(step.offered ?? tools.map((tool) => tool.name));
  offered.add(FINAL_ANSWER_TOOL);
  return { ...step, tools: [...step.tools, output.tool], offered };
}

/**
 * Before a step, with `compact`: when the history nears the limit, the older steps become one
 * summary, recorded so a resumed session sees the same history. The harness's `compaction` taps may
 * cancel it first (logged; they are asked again at the next step). A summary call that fails is
 * logged and the step goes on uncompacted (the model may still take the history).
 */
async function compact(context: TurnContext, policies: TurnPolicies, index: number, tell: TurnObserver | undefined, runId: string): Promise<void | typeof ABORTED> {
  const { messages, signal, harness } = context;
  const began = tell === undefined ? 0 : performance.now();
  let outcome;
  try {
    outcome = await policies.compactor!.plan(messages, context.model, signal, { trigger: 'auto', before: compactionTaps(harness, runId) });
  } catch (error) {
    if (signal?.aborted) return ABORTED;
    harness.logger.warn({ err: error, step: index }, 'compacting the history failed; the step goes on with the whole history');
    return;
  }
  if (signal?.aborted) return ABORTED;
  if (outcome.status === 'cancelled') harness.logger.info({ step: index, tap: outcome.by, reason: outcome.reason }, `"${outcome.by}" cancelled the compaction; the step goes on with the whole history`);
  if (outcome.status !== 'compacted') return;
  const { compaction } = outcome;
  policies.budget?.charge(compaction.model, usageOrEstimate(messages.slice(compaction.from, compaction.from + compaction.count), compaction.response));
  applyCompaction(messages, compaction, context.recorder);
  context.emit?.({ type: 'compaction', step: index, replaced: compaction.count, summary: compaction.summary.content });
  tell?.({ type: 'compaction', step: index, modelId: compaction.model, replaced: compaction.count, response: compaction.response, durationMs: since(began) });
}

/**
 * Phase 2 with a planned step: calls to tools the step did not offer are refused like unknown
 * tools, `tool_search` calls are answered by tool search and `final_answer` calls read by the
 * structured answer; the rest run through the pipeline.
 * Results in call order; those that never entered the pipeline are recorded here.
 */
async function actPlanned(context: TurnContext, index: number, calls: readonly ModelToolCall[], options: ExecuteManyOptions, planned: PlannedStep): Promise<readonly ToolResult[]> {
  const output = context.policies?.output;
  const split = refuseUnoffered(calls, planned);
  const answers = new Map<number, ToolResult>(split?.refused);
  const search = context.policies?.toolSearch;
  if (search !== undefined && planned.offered?.has(TOOL_SEARCH_TOOL) === true) {
    // Each tool_search is answered here: what it finds joins the offered tools from the next step on.
    for (let i = 0; i < calls.length; i++) {
      if (calls[i]!.name === TOOL_SEARCH_TOOL) answers.set(i, search.answer(calls[i]!));
    }
  }
  if (output !== undefined) {
    // Each final_answer is read (the first valid one is the turn's answer); none enters the pipeline.
    for (let i = 0; i < calls.length; i++) {
      if (calls[i]!.name === FINAL_ANSWER_TOOL) answers.set(i, (await output.check(calls[i]!)).result);
    }
  }
  if (answers.size === 0) return act(context, index, calls, options);
  const runnable = calls.filter((_, i) => !answers.has(i));
  const ran = runnable.length === 0 ? NO_RESULTS : await act(context, index, runnable, options);
  const results: ToolResult[] = new Array(calls.length);
  let next = 0;
  for (let i = 0; i < calls.length; i++) {
    const answer = answers.get(i);
    if (answer === undefined) results[i] = ran[next++]!;
    else {
      results[i] = answer;
      // They never entered the pipeline, so its journal did not see them.
      context.recorder?.result(answer);
    }
  }
  return results;
}

/**
 * Phase 3: every result back into the history, errors included, so the model reads them and adapts.
 * A call `waiting` for an approval gets no tool message: it is still open, answered on resume.
 */
function observe(context: TurnContext, index: number, calls: readonly ModelToolCall[], results: readonly ToolResult[], turnResults: ToolResult[], waiting: readonly AwaitingApproval[]): void {
  const { messages, emit } = context;
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    if (waiting.length === 0 || !waiting.some((call) => call.callId === result.callId)) messages.push(Object.freeze(toolMessage(result)));
    turnResults.push(result);
    emit?.({ type: 'tool-result', step: index, call: calls[i]!, result });
  }
}

function assistantMessage(response: ModelResponse, content: string): AssistantMessage {
  // Empty toolCalls are left out: providers reject an assistant message with `tool_calls: []`.
  const hasCalls = response.toolCalls.length > 0;
  const message: AssistantMessage =
    response.reasoning === undefined
      ? hasCalls ? { role: 'assistant', content, toolCalls: response.toolCalls } : { role: 'assistant', content }
      : hasCalls ? { role: 'assistant', content, toolCalls: response.toolCalls, reasoning: response.reasoning } : { role: 'assistant', content, reasoning: response.reasoning };
  if (response.parts === undefined && response.providerData === undefined) return Object.freeze(message);
  const withParts = response.parts === undefined ? message : { ...message, parts: response.parts };
  return Object.freeze(response.providerData === undefined ? withParts : { ...withParts, providerData: response.providerData });
}
