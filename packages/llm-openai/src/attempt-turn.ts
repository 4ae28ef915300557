import type { ModelStreamEvent } from '@weir/core';
import type { CallDeadline } from './call-deadline.js';
import { IdleTimer } from './idle-timer.js';
import { OpenAIError } from './openai-error.js';
import type { ResolvedOptions } from './openai-model-options.js';
import { readTurn } from './read-turn.js';
import type { CallIdContext } from './tool-call-assembler.js';
import { transportError } from './transport-error.js';
import { ResponsesTurn } from './responses/responses-turn.js';
import { TurnAccumulator } from './turn-accumulator.js';

/** What every attempt of one call shares: built once, when the call starts. */
export interface CallPlan {
  readonly options: ResolvedOptions;
  /** The request body, serialised once: retries resend exactly the same bytes. */
  readonly body: string;
  /** What the request could not honour (call options the API lacks): told on the answer. */
  readonly warnings: readonly string[];
  readonly ids: CallIdContext;
  readonly caller: AbortSignal | undefined;
  readonly deadline: CallDeadline;
}

/**
 * One attempt: POST, check the answer, read it. Yields the deltas as they arrive, then one
 * `finish` event. The idle timer runs from the request on and is reset by every byte; leaving
 * early (the consumer stops iterating) aborts the request and frees the connection. Throws an
 * `OpenAIError` (see `transportError`) or the caller's abort reason.
 */
export async function* attemptTurn(plan: CallPlan, attempt: number): AsyncGenerator<ModelStreamEvent, void> {
  const { options } = plan;
  const controller = new AbortController();
  const idle = new IdleTimer(options.idleTimeoutMs, () => {
    controller.abort(
      new OpenAIError('IDLE_TIMEOUT', `The server at ${options.target.display} sent nothing for ${options.idleTimeoutMs} ms (idleTimeoutMs); the attempt was abandoned.`, {
        url: options.target.display,
        retryable: true,
        attempt,
      }),
    );
  });
  const signals = { caller: plan.caller, deadline: plan.deadline.expired, attempt: controller.signal };
  const fail = (error: unknown) => transportError(error, signals, options.target.display, attempt);
  const errors = { target: options.target, model: options.model, secrets: options.secrets, attempt };
  const ignorableAfterComplete = () => plan.caller?.aborted !== true;

  idle.touch();
  try {
    let response: Response;
    try {
      response = await options.fetch(options.target.href, {
        method: 'POST',
        headers: options.headers,
        body: plan.body,
        signal: AbortSignal.any([plan.deadline.signal, controller.signal]),
      });
    } catch (error) {
      throw fail(error);
    }
    idle.touch();
    try {
      const turn = options.api === 'responses' ? new ResponsesTurn(plan.ids, plan.warnings) : new TurnAccumulator(plan.ids, { thinkTags: options.thinkTags });
      yield* readTurn(response, turn, { idle, errors, ignorableAfterComplete });
    } catch (error) {
      throw fail(error);
    }
  } finally {
    idle.stop();
    controller.abort();
  }
}
