import { IdleTimer, type CallDeadline, type ModelStreamEvent } from '@weir/core';
import { AnthropicError } from './anthropic-error.js';
import type { ResolvedOptions } from './anthropic-model-options.js';
import { readAnthropicTurn } from './read-anthropic-turn.js';

/** What every attempt of one call shares, built once when the call starts. */
export interface CallPlan {
  readonly options: ResolvedOptions;
  /** The request body, serialised once: retries resend exactly the same bytes. */
  readonly body: string;
  readonly headers: Headers;
  readonly caller: AbortSignal | undefined;
  readonly deadline: CallDeadline;
}

/**
 * One attempt: POST, then read the answer, yielding its deltas and one `finish`. The idle timer
 * runs from the request on, reset by every byte; leaving early aborts the request. Throws an
 * `AnthropicError` (a failed connection is a retryable `NETWORK` one), or the caller's abort reason.
 */
export async function* attemptAnthropicTurn(plan: CallPlan, attempt: number): AsyncGenerator<ModelStreamEvent, void> {
  const { options } = plan;
  const controller = new AbortController();
  const idle = new IdleTimer(options.idleTimeoutMs, () => {
    controller.abort(new AnthropicError('IDLE_TIMEOUT', `The server at ${options.display} sent nothing for ${options.idleTimeoutMs} ms (idleTimeoutMs); the attempt was abandoned.`, { url: options.display, retryable: true, attempt }));
  });
  const fail = (error: unknown): unknown => {
    if (plan.caller?.aborted) return plan.caller.reason;
    if (plan.deadline.expired.aborted) return plan.deadline.expired.reason;
    if (controller.signal.aborted && controller.signal.reason instanceof AnthropicError) return controller.signal.reason;
    if (error instanceof AnthropicError) return error.numbered(attempt);
    const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
    const code = typeof cause?.code === 'string' ? `, ${cause.code}` : '';
    return new AnthropicError('NETWORK', `The connection to ${options.display} failed (${error instanceof Error ? error.message : String(error)}${code}).`, { url: options.display, retryable: true, attempt, cause: error });
  };
  idle.touch();
  try {
    let response: Response;
    try {
      response = await options.fetch(options.url, { method: 'POST', headers: plan.headers, body: plan.body, signal: AbortSignal.any([plan.deadline.signal, controller.signal]) });
    } catch (error) {
      throw fail(error);
    }
    idle.touch();
    try {
      yield* readAnthropicTurn(response, idle, { display: options.display, model: options.model, secrets: options.secrets, attempt });
    } catch (error) {
      throw fail(error);
    }
  } finally {
    idle.stop();
    controller.abort();
  }
}
