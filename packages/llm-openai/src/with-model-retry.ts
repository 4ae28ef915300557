import { streamWithModelRetry as sharedStream, withModelRetry as sharedRetry, type ModelStreamEvent, type RetryEvent as SharedRetryEvent, type RetryPolicy as SharedPolicy } from '@weir/core';
import { OpenAIError } from './openai-error.js';

/** Told before each wait between attempts. */
export type RetryEvent = SharedRetryEvent<OpenAIError>;

export type RetryPolicy = Omit<SharedPolicy<OpenAIError>, 'isAdapterError'>;

const isOpenAIError = (error: unknown): error is OpenAIError => error instanceof OpenAIError;

/** Core's `withModelRetry` over `OpenAIError`s: a retryable one (408, 409, 429, 5xx, network, idle, cut stream) is tried again. */
export function withModelRetry<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  return sharedRetry(attempt, { ...policy, isAdapterError: isOpenAIError });
}

/** Core's `streamWithModelRetry` over `OpenAIError`s: attempts retried until the first event. */
export function streamWithModelRetry(
  attempt: (attemptNumber: number) => AsyncGenerator<ModelStreamEvent, void>,
  policy: RetryPolicy,
  ended: (attemptNumber: number) => OpenAIError,
): AsyncGenerator<ModelStreamEvent, void> {
  return sharedStream(attempt, { ...policy, isAdapterError: isOpenAIError }, ended);
}
