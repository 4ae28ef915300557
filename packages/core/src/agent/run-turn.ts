import type { Harness } from '../harness.js';
import { HarnessError, isHarnessError } from '../harness-error.js';
import type { AssistantMessage, LanguageModel, Message, ModelResponse, ModelToolCall, Usage } from '../model.js';
import type { ToolResult } from '../tool-result.js';
import { addUsage } from './add-usage.js';
import type { AgentEvent } from './agent-event.js';
import { callModel } from './call-model.js';
import { notExecutedResults, toolMessage } from './tool-messages.js';
import type { AgentStep, StopReason, TurnResult } from './turn-result.js';

/** Everything one turn reads. `messages` is the agent's own history: the turn appends to it in place. */
export interface TurnContext {
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
}

const NO_RESULTS: readonly ToolResult[] = Object.freeze([]);
const ABORTED = Symbol('aborted');

/**
 * One turn: the user's text, then steps until the model answers without tool calls or a stop
 * condition holds. Each step has three phases: think (one model call over the whole history),
 * act (run the answer's tool calls through the pipeline, or refuse to run them), observe (every
 * result, success or error, goes into the history as a tool message). Nothing here copies the
 * history: a step costs the same at step 1,000 as at step 10.
 *
 * Resolves with a stop reason for every expected end, aborts included. Rejects only when the
 * model call fails (`MODEL_CALL_FAILED`) or answers outside the spec (`INVALID_MODEL_RESPONSE`);
 * the history then holds every step that completed, each tool call answered.
 */
export async function runTurn(context: TurnContext, text: string): Promise<TurnResult> {
  const { messages, maxSteps, signal, emit } = context;
  const steps: AgentStep[] = [];
  const toolResults: ToolResult[] = [];
  let usage: Usage | undefined;
  let lastText = '';

  const end = (stopReason: StopReason): TurnResult => {
    const result: TurnResult = { text: lastText, stopReason, steps, toolResults, usage };
    emit?.({ type: 'turn-end', result });
    return result;
  };

  emit?.({ type: 'turn-start', text });
  // A turn whose signal has already aborted never starts: the history stays as it was.
  if (signal?.aborted) return end('aborted');
  messages.push(Object.freeze({ role: 'user', content: text }));

  for (;;) {
    if (signal?.aborted) return end('aborted');
    if (steps.length >= maxSteps) return end('max_steps');
    const index = steps.length + 1;

    const response = await think(context, index);
    if (response === ABORTED) return end('aborted');
    usage = addUsage(usage, response.usage);
    lastText = response.text !== '' ? response.text : (response.refusal ?? '');
    messages.push(assistantMessage(response, lastText));

    const calls = response.toolCalls;
    // Tool calls of a cut-off, filtered or failed answer may be incomplete: they never run.
    const runnable = response.finishReason === 'stop' || response.finishReason === 'tool_calls';
    const results = calls.length === 0 ? NO_RESULTS : runnable ? await act(context, index, calls) : notExecutedResults(calls, response.finishReason);

    observe(context, index, calls, results, toolResults);
    steps.push({ index, response, toolResults: results });

    if (!runnable) return end(response.finishReason as StopReason);
    if (calls.length === 0) return end('stop');
  }
}

/** Phase 1: one model call over the whole history (the array itself, never a copy). */
async function think(context: TurnContext, index: number): Promise<ModelResponse | typeof ABORTED> {
  const { model, harness, messages, signal, emit } = context;
  emit?.({ type: 'model-call-start', step: index });
  const request = { messages, tools: harness.tools.schemas(), signal };
  const onTextDelta = emit !== undefined && context.stream ? (delta: string) => emit({ type: 'text-delta', step: index, text: delta }) : undefined;
  let response: ModelResponse;
  try {
    response = await callModel(model, request, onTextDelta);
  } catch (error) {
    if (signal?.aborted) return ABORTED;
    if (isHarnessError(error, 'INVALID_MODEL_RESPONSE')) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError('MODEL_CALL_FAILED', `Model ${model.id} failed at step ${index}: ${reason}`, { cause: error });
  }
  emit?.({ type: 'model-call-end', step: index, response });
  return response;
}

/** Phase 2: the answer's calls through the six stages, bounded concurrency, results in call order. */
function act(context: TurnContext, index: number, calls: readonly ModelToolCall[]): Promise<readonly ToolResult[]> {
  const { emit } = context;
  if (emit !== undefined) for (const call of calls) emit({ type: 'tool-start', step: index, call });
  return context.harness.executeToolCalls(calls, { signal: context.signal, concurrency: context.toolConcurrency });
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
