import { IdleTimer, type CallDeadline, type ModelStreamEvent } from '@weir/core';
import { GeminiTurn, type CallIdContext } from './gemini-turn.js';
import { GoogleError } from './google-error.js';
import type { ResolvedOptions } from './google-model-options.js';
import { readGeminiTurn } from './read-gemini-turn.js';

/** What every attempt of one call shares: built once, when the call starts. */
export interface CallPlan {
  readonly options: ResolvedOptions;
  /** The request body, serialised once: retries resend the same bytes. */
  readonly body: string;
  /** What the request could not honour (call options Gemini lacks): told on the answer. */
  readonly warnings: readonly string[];
  readonly ids: CallIdContext;
  readonly caller: AbortSignal | undefined;
  readonly deadline: CallDeadline;
}

/**
 * One attempt: POST, check the answer, read it. Yields deltas, then one `finish` event. The idle
 * timer runs from the request on; leaving early aborts the request. Throws a `GoogleError` (a failed
 * connection is a retryable `NETWORK` one), or the caller's abort reason.
 */
export async function* attemptTurn(plan: CallPlan, attempt: number): AsyncGenerator<ModelStreamEvent, void> {
  const { options } = plan;
  const controller = new AbortController();
  const idle = new IdleTimer(options.idleTimeoutMs, () => {
    controller.abort(new GoogleError('IDLE_TIMEOUT', `The Gemini API at ${options.display} sent nothing for ${options.idleTimeoutMs} ms (idleTimeoutMs); the attempt was abandoned.`, { url: options.display, retryable: true, attempt }));
  });
  const errors = { display: options.display, model: options.model, secrets: options.secrets, attempt };
  idle.touch();
  try {
    const response = await options.fetch(options.href, { method: 'POST', headers: options.headers, body: plan.body, signal: AbortSignal.any([plan.deadline.signal, controller.signal]) });
    idle.touch();
    yield* readGeminiTurn(response, new GeminiTurn(plan.ids, plan.warnings), idle, errors);
  } catch (error) {
    throw explain(error, plan, controller.signal, attempt);
  } finally {
    idle.stop();
    controller.abort();
  }
}

/** The caller's abort reason, the deadline's or idle timer's error, a `GoogleError` as it is, or a retryable `NETWORK` error. */
function explain(error: unknown, plan: CallPlan, attemptSignal: AbortSignal, attempt: number): unknown {
  if (plan.caller?.aborted) return plan.caller.reason;
  if (plan.deadline.expired.aborted) return withAttempt(plan.deadline.expired.reason, attempt);
  if (attemptSignal.aborted && attemptSignal.reason instanceof GoogleError) return withAttempt(attemptSignal.reason, attempt);
  if (error instanceof GoogleError) return error.withAttempt(attempt);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const detail = [error instanceof Error ? error.message : String(error), typeof cause?.message === 'string' ? cause.message : undefined, typeof cause?.code === 'string' ? cause.code : undefined]
    .filter((part) => part !== undefined && part !== '')
    .join(': ');
  return new GoogleError('NETWORK', `The connection to ${plan.options.display} failed (${detail}).`, { url: plan.options.display, retryable: true, attempt, cause: error });
}

function withAttempt(error: unknown, attempt: number): unknown {
  return error instanceof GoogleError ? error.withAttempt(attempt) : error;
}
