import { OpenAIError } from './openai-error.js';

/** Which signals may explain a failure, most specific last. */
export interface FailureSignals {
  readonly caller: AbortSignal | undefined;
  readonly deadline: AbortSignal;
  readonly attempt: AbortSignal;
}

const HINTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: ' Is the server running, and does OPENAI_BASE_URL point at it?',
  ENOTFOUND: ' Check the host name in OPENAI_BASE_URL.',
  EAI_AGAIN: ' The host name could not be resolved right now (DNS).',
  CERT_HAS_EXPIRED: ' The server\'s TLS certificate has expired.',
};

/**
 * Explains why an attempt failed, as what the caller should see: the caller's abort reason when the
 * caller aborted; the deadline's `TIMEOUT` or the idle timer's `IDLE_TIMEOUT` when one fired; an
 * `OpenAIError` as it is (numbered with `attempt` if it was not); anything else (fetch's "fetch
 * failed", a socket closed mid-body) as a retryable `NETWORK` error. Returns; never throws.
 */
export function transportError(error: unknown, signals: FailureSignals, display: string, attempt: number): unknown {
  if (signals.caller?.aborted) return signals.caller.reason;
  if (signals.deadline.aborted) return numbered(signals.deadline.reason, attempt);
  if (signals.attempt.aborted && signals.attempt.reason instanceof OpenAIError) return numbered(signals.attempt.reason, attempt);
  if (error instanceof OpenAIError) return numbered(error, attempt);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = [error instanceof Error ? error.message : String(error), typeof cause?.message === 'string' ? cause.message : undefined]
    .filter((part) => part !== undefined && part !== '')
    .join(': ');
  return new OpenAIError('NETWORK', `The connection to ${display} failed (${detail}${code === undefined ? '' : `, ${code}`}).${(code && HINTS[code]) ?? ''}`, {
    url: display,
    retryable: true,
    attempt,
    cause: error,
  });
}

/** The same error with its attempt number, when it had none. */
function numbered(error: unknown, attempt: number): unknown {
  if (!(error instanceof OpenAIError) || error.attempt !== undefined) return error;
  const copy = new OpenAIError(error.code, error.message, { ...error, cause: error.cause, attempt });
  copy.stack = error.stack;
  return copy;
}
