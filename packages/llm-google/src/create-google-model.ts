import { CallDeadline, streamWithModelRetry, withModelRetry, type LanguageModel, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '@weir/core';
import { attemptTurn, type CallPlan } from './attempt-turn.js';
import { GOOGLE_PROVIDER, type CallIdContext } from './gemini-turn.js';
import { GoogleError } from './google-error.js';
import type { RetryEvent } from './google-model-options.js';
import { resolveOptions, type GoogleModelOptions, type ResolvedOptions } from './google-model-options.js';
import { toGeminiRequest } from './to-gemini-request.js';

/** A `LanguageModel` whose `stream` is always there. */
export interface GoogleModel extends LanguageModel {
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/**
 * A `LanguageModel` for Google's Gemini API (`streamGenerateContent` with `alt=sse`), over Node's
 * `fetch` and `eventsource-parser`. Throws `GoogleError('INVALID_CONFIG')` for bad options; makes no
 * request until called. `complete()` resolves with the whole answer; `stream()` yields deltas, then
 * one `finish` event. Both retry retryable failures (429 honouring `RetryInfo.retryDelay`, 500, 503,
 * 504, network, idle timeout, a cut stream) before anything reached the caller, reject with a
 * `GoogleError` otherwise, and with the signal's reason when `request.signal` aborts.
 */
export function createGoogleModel(options: GoogleModelOptions): GoogleModel {
  const resolved = resolveOptions(options);
  const warned = new Set<string>();
  const warn = (toolName: string, message: string) => {
    if (warned.has(toolName)) return;
    warned.add(toolName);
    resolved.onWarning(message);
  };
  return {
    id: `google:${resolved.model}`,
    provider: GOOGLE_PROVIDER,
    complete: (request) => complete(startCall(resolved, request, warn)),
    stream: (request) => stream(startCall(resolved, request, warn)),
  };
}

async function complete(plan: CallPlan): Promise<ModelResponse> {
  try {
    return await withModelRetry(async (attempt) => {
      for await (const event of attemptTurn(plan, attempt)) if (event.type === 'finish') return event.response;
      throw incomplete(attempt);
    }, retryPolicy(plan));
  } catch (error) {
    throw surfaced(error, plan);
  } finally {
    plan.deadline.dispose();
  }
}

async function* stream(plan: CallPlan): AsyncGenerator<ModelStreamEvent, void> {
  try {
    yield* streamWithModelRetry((attempt) => attemptTurn(plan, attempt), retryPolicy(plan), incomplete);
  } catch (error) {
    throw surfaced(error, plan);
  } finally {
    plan.deadline.dispose();
  }
}

function incomplete(attempt: number): GoogleError {
  return new GoogleError('INCOMPLETE_STREAM', 'The answer ended without a finish event.', { retryable: true, attempt });
}

/** Everything fixed for one call, built before the first await: the loop may append to the history later. */
function startCall(options: ResolvedOptions, request: ModelRequest, warn: (toolName: string, message: string) => void): CallPlan {
  const { body, warnings } = toGeminiRequest(request, { model: options.model, schemaForm: options.schemaForm, includeThoughts: options.includeThoughts, extraBody: options.extraBody, warn });
  return { options, body: JSON.stringify(body), warnings, ids: callIds(request), caller: request.signal, deadline: new CallDeadline(options.timeoutMs, request.signal, timeoutError) };
}

/** The answer's turn number and the ids the history uses: where synthesised call ids come from. */
function callIds(request: ModelRequest): CallIdContext {
  let turn = 1;
  const taken = new Set<string>();
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      turn++;
      for (const call of message.toolCalls ?? []) taken.add(call.id);
    } else if (message.role === 'tool') {
      taken.add(message.toolCallId);
    }
  }
  return { turn, taken };
}

function retryPolicy(plan: CallPlan) {
  const { options, deadline } = plan;
  const onRetry: ((event: RetryEvent) => void) | undefined = options.onRetry;
  return { maxRetries: options.maxRetries, maxRetryDelayMs: options.maxRetryDelayMs, signal: deadline.signal, remainingMs: () => deadline.remainingMs(), isAdapterError, onRetry };
}

function isAdapterError(error: unknown): error is GoogleError {
  return error instanceof GoogleError;
}

function timeoutError(timeoutMs: number): GoogleError {
  return new GoogleError('TIMEOUT', `No complete answer within ${timeoutMs} ms (timeoutMs), retries included.`);
}

/** The caller's abort reason wins over whatever the abort caused; the deadline's TIMEOUT likewise. */
function surfaced(error: unknown, plan: CallPlan): unknown {
  if (plan.caller?.aborted) return plan.caller.reason;
  if (plan.deadline.expired.aborted && !(error instanceof GoogleError)) return plan.deadline.expired.reason;
  return error;
}
