import { turnHookOf, type ExecuteManyOptions, type Harness, type ProgressListener } from '../harness.js';
import { hasTaps } from '../plugins/hooks.js';
import { since } from '../pipeline/call-event.js';
import type { TurnEvent, TurnInfo } from './turn-event.js';
import { HarnessError, isHarnessError } from '../harness-error.js';
import type { AssistantMessage, LanguageModel, Message, ModelResponse, ModelToolCall, Usage, UserMessage } from './model.js';
import type { ContentPart } from '../tools/content-part.js';
import type { ToolResult } from '../tools/tool-result.js';
import { addUsage } from './add-usage.js';
import { newCallKey } from '../pipeline/call-key.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import type { AgentEvent } from './agent-event.js';
import { callModel } from './call-model.js';
import type { SessionRecorder } from './session-recorder.js';
import { notExecutedResults, toolMessage } from './tool-messages.js';
import type { AgentStep, StopReason, TurnResult } from './turn-result.js';

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
}

const NO_RESULTS: readonly ToolResult[] = Object.freeze([]);
const ABORTED = Symbol('aborted');

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
 * turn's end (durably, whatever the stop reason).
 *
 * Resolves with a stop reason for every expected end, aborts included. Rejects when the model call
 * fails (`MODEL_CALL_FAILED`) or answers outside the spec (`INVALID_MODEL_RESPONSE`), the history
 * then holding every step that completed, each tool call answered; and with the session's error
 * (`SESSION_WRITE_FAILED`, `INVALID_SESSION_RECORD`) as soon as a record fails: the turn stops there.
 */
export async function runTurn(context: TurnContext, input: TurnInput): Promise<TurnResult> {
  const { messages, maxSteps, signal, emit, recorder } = context;
  const steps: AgentStep[] = [];
  const toolResults: ToolResult[] = [];
  // One run per turn: every call of the turn carries it (journals, queues and traces key on it).
  const options = { signal, concurrency: context.toolConcurrency, approvals: recorder?.approvals, journal: recorder?.journal, run: Object.freeze({ id: newCallKey() }) };
  let usage: Usage | undefined;
  let lastText = '';
  // The `turn` observers (tracing), read once: an unobserved turn builds no event and reads no clock.
  const tell = observeTurn(context, options.run);
  const began = tell === undefined ? 0 : performance.now();

  const end = async (stopReason: StopReason): Promise<TurnResult> => {
    // The end is durable before the caller hears of it: a turn that reports an end has recorded it.
    await recorder?.turnEnd(stopReason);
    const result: TurnResult = { text: lastText, stopReason, steps, toolResults, usage };
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
      observe(context, 0, input.resume, results, toolResults);
      await recorder?.checkpoint();
    }

    for (;;) {
      if (signal?.aborted) return await end('aborted');
      if (steps.length >= maxSteps) return await end('max_steps');
      recorder?.check();
      const index = steps.length + 1;

      const answered = await think(context, index, tell);
      if (answered === ABORTED) return await end('aborted');
      // Checked and given unique ids before the answer joins the history: a malformed call leaves it answerable.
      const normalized = normalizeToolCalls(context.model, answered.toolCalls, context.usedCallIds, index);
      const response: ModelResponse = normalized.length === 0 && answered.toolCalls.length === 0 ? answered : { ...answered, toolCalls: normalized };
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
        results = await act(context, index, calls, options);
      } else if (calls.length > 0) {
        results = notExecutedResults(calls, response.finishReason);
        // They never entered the pipeline, so its journal did not see them.
        if (recorder !== undefined) for (const result of results) recorder.result(result);
      }

      observe(context, index, calls, results, toolResults);
      steps.push({ index, response, toolResults: results });
      // After each batch: every result durable, and any failed record stops the turn here.
      if (calls.length > 0) await recorder?.checkpoint();

      if (!runnable) return await end(response.finishReason as StopReason);
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
async function think(context: TurnContext, index: number, tell: TurnObserver | undefined): Promise<ModelResponse | typeof ABORTED> {
  const { model, harness, messages, signal, emit } = context;
  emit?.({ type: 'model-call-start', step: index });
  const request = { messages, tools: harness.tools.schemas(), signal };
  const onTextDelta = emit !== undefined && context.stream ? (delta: string) => emit({ type: 'text-delta', step: index, text: delta }) : undefined;
  let began = 0;
  if (tell !== undefined) {
    tell({ type: 'model-call-start', step: index, request });
    began = performance.now();
  }
  let response: ModelResponse;
  try {
    response = await callModel(model, request, onTextDelta);
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
  return response;
}

type TurnObserver = (event: TurnEvent) => void;

/** Hands each event (frozen) to the harness's `turn` observers; `undefined` when nobody taps the hook. */
function observeTurn(context: TurnContext, run: TurnInfo['run']): TurnObserver | undefined {
  const hook = turnHookOf(context.harness);
  if (hook === undefined || !hasTaps(hook)) return undefined;
  const info: TurnInfo = Object.freeze({ run, modelId: context.model.id, logger: context.harness.logger });
  return (event) => hook.call(Object.freeze(event), info);
}

/** Phase 2: the answer's calls through the six stages, bounded concurrency, results in call order. */
function act(context: TurnContext, index: number, calls: readonly ModelToolCall[], options: ExecuteManyOptions): Promise<readonly ToolResult[]> {
  const { emit } = context;
  if (emit === undefined) return context.harness.executeToolCalls(calls, options);
  for (const call of calls) emit({ type: 'tool-start', step: index, call });
  const onProgress: ProgressListener = (update, call) => emit({ type: 'tool-progress', step: index, callId: call.callId, toolName: call.toolName, update });
  return context.harness.executeToolCalls(calls, { ...options, onProgress });
}

/** Phase 3: every result back into the history, errors included, so the model reads them and adapts. */
function observe(context: TurnContext, index: number, calls: readonly ModelToolCall[], results: readonly ToolResult[], turnResults: ToolResult[]): void {
  const { messages, emit } = context;
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    messages.push(Object.freeze(toolMessage(result)));
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
  return Object.freeze(message);
}
