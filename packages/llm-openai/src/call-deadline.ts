import { CallDeadline as SharedDeadline } from '@weir/core';
import { OpenAIError } from './openai-error.js';

/** Core's call deadline, whose expiry is an `OpenAIError('TIMEOUT')`. */
export class CallDeadline extends SharedDeadline {
  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    super(timeoutMs, caller, (ms) => new OpenAIError('TIMEOUT', `No complete answer within ${ms} ms (timeoutMs), retries included. Raise timeoutMs for slow models, or check the server.`));
  }
}
