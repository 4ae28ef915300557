import { CallDeadline, streamWithModelRetry, withModelRetry, type LanguageModel, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '@weir/core';
import { AnthropicError } from './anthropic-error.js';
import { resolveOptions, type AnthropicModelOptions, type ResolvedOptions } from './anthropic-model-options.js';
import { attemptAnthropicTurn, type CallPlan } from './attempt-anthropic-turn.js';
import { PROVIDER } from './to-anthropic-messages.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** A `LanguageModel` whose `stream` is always there. */
export interface AnthropicModel extends LanguageModel {
  readonly provider: 'anthropic';
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/**
 * A `LanguageModel` for Anthropic's Messages API, over Node's `fetch`, streamed. Throws
 * `AnthropicError('INVALID_CONFIG')` for bad options; makes no request until called.
 *
 * Thinking (`options.reasoning`) comes back as reasoning parts whose signatures (and redacted
 * thinking) go back byte for byte; prompt caching is on by default (`options.cache`). Both
 * `complete()` and `stream()` retry 429, 529, 5xx, network and idle failures before anything
 * reached the caller (honouring `retry-after`), never 400 or 401, and reject with an
 * `AnthropicError`, or the signal's reason when `request.signal` aborts.
 */
export function createAnthropicModel(options: AnthropicModelOptions): AnthropicModel {
  const resolved = resolveOptions(options);
  const model: AnthropicModel = {
    id: `anthropic:${resolved.model}`,
    provider: PROVIDER,
    ...(resolved.metadata === undefined ? {} : { metadata: resolved.metadata }),
    complete: (request) => complete(resolved, request),
    stream: (request) => stream(resolved, request),
  };
  return Object.freeze(model);
}

async function complete(options: ResolvedOptions, request: ModelRequest): Promise<ModelResponse> {
  const { plan, warnings } = startCall(options, request);
  try {
    const response = await withModelRetry(async (attempt) => {
      for await (const event of attemptAnthropicTurn(plan, attempt)) if (event.type === 'finish') return event.response;
      throw incomplete(attempt);
    }, retryPolicy(plan));
    return withWarnings(response, warnings);
  } catch (error) {
    throw surfaced(error, plan);
  } finally {
    plan.deadline.dispose();
  }
}

async function* stream(options: ResolvedOptions, request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
  const { plan, warnings } = startCall(options, request);
  try {
    for await (const event of streamWithModelRetry((attempt) => attemptAnthropicTurn(plan, attempt), retryPolicy(plan), incomplete)) {
      yield event.type === 'finish' ? { type: 'finish', response: withWarnings(event.response, warnings) } : event;
    }
  } catch (error) {
    throw surfaced(error, plan);
  } finally {
    plan.deadline.dispose();
  }
}

function incomplete(attempt: number): AnthropicError {
  return new AnthropicError('INCOMPLETE_STREAM', 'The answer ended without a finish event.', { retryable: true, attempt });
}

/** Everything fixed for one call, built before the first await: the loop may append to the history later. */
function startCall(options: ResolvedOptions, request: ModelRequest): { plan: CallPlan; warnings: readonly string[] } {
  const wire = toAnthropicRequest(request, options.model, options.maxOutputTokens);
  let headers = options.headers;
  if (wire.longCache && !headers.has('anthropic-beta')) {
    headers = new Headers(headers);
    headers.set('anthropic-beta', 'extended-cache-ttl-2025-04-11');
  }
  const deadline = new CallDeadline(options.timeoutMs, request.signal, (ms) => new AnthropicError('TIMEOUT', `No complete answer within ${ms} ms (timeoutMs), retries included. Raise timeoutMs for long thinking, or check the server.`));
  return { plan: { options, body: JSON.stringify(wire.body), headers, caller: request.signal, deadline }, warnings: wire.warnings };
}

function withWarnings(response: ModelResponse, warnings: readonly string[]): ModelResponse {
  return warnings.length === 0 ? response : { ...response, warnings };
}

function retryPolicy(plan: CallPlan) {
  const { options, deadline } = plan;
  return {
    maxRetries: options.maxRetries,
    maxRetryDelayMs: options.maxRetryDelayMs,
    signal: deadline.signal,
    remainingMs: () => deadline.remainingMs(),
    isAdapterError: (error: unknown): error is AnthropicError => error instanceof AnthropicError,
    onRetry: options.onRetry,
  };
}

/** The caller's abort reason wins over whatever the abort caused; the deadline's TIMEOUT likewise. */
function surfaced(error: unknown, plan: CallPlan): unknown {
  if (plan.caller?.aborted) return plan.caller.reason;
  if (plan.deadline.expired.aborted && !(error instanceof AnthropicError)) return plan.deadline.expired.reason;
  return error;
}
