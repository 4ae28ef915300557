import type { LanguageModel, ModelRequest, ModelResponse, ModelStreamEvent } from '@weir/core';
import { attemptTurn, type CallPlan } from './attempt-turn.js';
import { CallDeadline } from './call-deadline.js';
import { OpenAIError } from './openai-error.js';
import { resolveOptions, type OpenAIModelOptions, type ResolvedOptions } from './openai-model-options.js';
import { RESPONSES_PROVIDER } from './responses/responses-turn.js';
import { toResponsesRequest } from './responses/to-responses-request.js';
import { callIdContext, toWireRequest } from './to-wire-request.js';
import { streamWithModelRetry, withModelRetry } from './with-model-retry.js';

/** A `LanguageModel` whose `stream` is always there. */
export interface OpenAIModel extends LanguageModel {
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/**
 * A `LanguageModel` for any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure, DeepSeek,
 * OpenRouter, vLLM, Ollama, LM Studio...), or for OpenAI's Responses API with `api: 'responses'`,
 * over Node's `fetch`. Throws `OpenAIError('INVALID_CONFIG')`
 * for bad options; makes no request until called.
 *
 * `complete()` resolves with the whole answer; `stream()` yields deltas as they arrive, then one
 * `finish` event with the same answer. Both retry retryable failures (408, 409, 429, 5xx, network,
 * idle timeout, a stream cut before its finish) before anything reached the caller, reject with an
 * `OpenAIError` otherwise, and reject with the signal's reason when `request.signal` aborts. Tool
 * calls of an answer that ended by `length`, `content_filter` or `error` are dropped; the finish
 * reason says why.
 */
export function createOpenAIModel(options: OpenAIModelOptions): OpenAIModel {
  const resolved = resolveOptions(options);
  return {
    id: `openai:${resolved.model}`,
    provider: resolved.api === 'responses' ? RESPONSES_PROVIDER : 'openai',
    complete: (request) => complete(resolved, request),
    stream: (request) => stream(resolved, request),
  };
}

async function complete(options: ResolvedOptions, request: ModelRequest): Promise<ModelResponse> {
  const plan = startCall(options, request);
  try {
    return await withModelRetry(async (attempt) => {
      for await (const event of attemptTurn(plan, attempt)) {
        if (event.type === 'finish') return event.response;
      }
      throw incomplete(attempt);
    }, retryPolicy(plan));
  } catch (error) {
    throw surfaced(error, plan);
  } finally {
    plan.deadline.dispose();
  }
}

async function* stream(options: ResolvedOptions, request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
  const plan = startCall(options, request);
  try {
    yield* streamWithModelRetry((attempt) => attemptTurn(plan, attempt), retryPolicy(plan), incomplete);
  } catch (error) {
    throw surfaced(error, plan);
  } finally {
    plan.deadline.dispose();
  }
}

function incomplete(attempt: number): OpenAIError {
  return new OpenAIError('INCOMPLETE_STREAM', 'The answer ended without a finish event.', { retryable: true, attempt });
}

/** Everything fixed for one call, built before the first await: the loop may append to the history later. */
function startCall(options: ResolvedOptions, request: ModelRequest): CallPlan {
  let warnings: readonly string[] = [];
  let wire: Record<string, unknown>;
  if (options.api === 'responses') ({ body: wire, warnings } = toResponsesRequest(request, options));
  else wire = toWireRequest(request, options);
  return { options, body: JSON.stringify(wire), warnings, ids: callIdContext(request), caller: request.signal, deadline: new CallDeadline(options.timeoutMs, request.signal) };
}

function retryPolicy(plan: CallPlan) {
  const { options, deadline } = plan;
  return {
    maxRetries: options.maxRetries,
    maxRetryDelayMs: options.maxRetryDelayMs,
    signal: deadline.signal,
    remainingMs: () => deadline.remainingMs(),
    onRetry: options.onRetry,
  };
}

/** The caller's abort reason wins over whatever the abort caused; the deadline's TIMEOUT likewise. */
function surfaced(error: unknown, plan: CallPlan): unknown {
  if (plan.caller?.aborted) return plan.caller.reason;
  if (plan.deadline.expired.aborted && !(error instanceof OpenAIError)) return plan.deadline.expired.reason;
  return error;
}
